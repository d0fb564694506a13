package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

// TestRedirectKeepsTheKeyAtHome has each provider's API answer with a
// redirect to another origin (another port of the same host, which Go's
// client treats as the same host and so would send even Authorization
// there): the request must not follow it, so the key the provider sends
// (x-api-key, Authorization, api-key, x-goog-api-key) never reaches the
// second server, and the refusal says why and is not retried.
func TestRedirectKeepsTheKeyAtHome(t *testing.T) {
	const key = "sk-PLANTED-redirect-key-0123456789"
	for _, tc := range []struct {
		spec string
		env  func(t *testing.T, base string)
	}{
		{"anthropic:claude-haiku-4-5", func(t *testing.T, base string) {
			t.Setenv("ANTHROPIC_API_KEY", key)
			t.Setenv("ANTHROPIC_BASE_URL", base)
		}},
		{"openai:gpt-5-mini", func(t *testing.T, base string) {
			t.Setenv("OPENAI_API_KEY", key)
			t.Setenv("OPENAI_BASE_URL", base+"/v1")
		}},
		{"gemini:gemini-2.5-flash", func(t *testing.T, base string) {
			t.Setenv("GEMINI_API_KEY", key)
			t.Setenv("GOOGLE_API_KEY", "")
			t.Setenv("GOOGLE_GEMINI_BASE_URL", base)
		}},
		{"azure-openai:gpt-5-mini", func(t *testing.T, base string) {
			t.Setenv("AZURE_OPENAI_API_KEY", key)
			t.Setenv("AZURE_OPENAI_ENDPOINT", base)
			t.Setenv("OPENAI_API_VERSION", "2024-10-21")
		}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			var elsewhere atomic.Int32
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				elsewhere.Add(1)
				for k, vs := range r.Header {
					for _, v := range vs {
						if strings.Contains(v, key) {
							t.Errorf("the key reached the other origin in %s", k)
						}
					}
				}
				http.Error(w, "not here", http.StatusNotFound)
			}))
			defer other.Close()
			var asked atomic.Int32
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			}))
			defer api.Close()
			tc.env(t, api.URL)
			m, _, err := Open(tc.spec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Generate(context.Background(), &model.Request{Messages: []model.Message{
				{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "hello"}}}}})
			if err == nil {
				t.Fatal("the request succeeded")
			}
			if n := asked.Load(); n != 1 {
				t.Fatalf("the API was asked %d times, want once (a refused redirect is not retried): %v", n, err)
			}
			if n := elsewhere.Load(); n != 0 {
				t.Errorf("the redirect was followed: %d requests reached the other origin", n)
			}
			if !strings.Contains(err.Error(), "refused a redirect") {
				t.Errorf("error %q does not say the redirect was refused", err)
			}
			if !strings.HasPrefix(err.Error(), tc.spec+": ") {
				t.Errorf("error %q does not begin with the spec it was asked under", err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("error %q carries the key", err)
			}
		})
	}
}
