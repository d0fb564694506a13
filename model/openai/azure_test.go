package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model/openai"
)

// TestAzureOnTheWire: the request goes to the deployment's path with the
// api-version the spec names, the key in api-key and no Authorization
// header, even with an OpenAI key in the environment.
func TestAzureOnTheWire(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-PLANTED-openai-env")
	st := providertest.Serve(t, providertest.Provider{API: wiremodel.AzureOpenAI, HandlerKey: azureKey})
	m := providertest.MustOpen(t, "azure-openai:my-gpt;api_version=2025-04-01-preview;max_tokens=300", openai.AzureConfig{Endpoint: st.URL, APIKey: azureKey}, openai.NewAzure)
	if _, err := m.Generate(context.Background(), providertest.Request()); err != nil {
		t.Fatal(err)
	}
	r := st.H.Requests()[0]
	if r.Path != "/openai/deployments/my-gpt/chat/completions" || r.Header.Get("Api-Key") != azureKey || r.Header.Get("Authorization") != "" {
		t.Errorf("path %s, api-key sent %v, Authorization %q", r.Path, r.Header.Get("Api-Key") != "", r.Header.Get("Authorization"))
	}
	if !strings.Contains(string(r.Body), `"max_completion_tokens":300`) {
		t.Errorf("body %s", r.Body)
	}
}

func TestAzureFromEnv(t *testing.T) {
	t.Setenv("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com/")
	t.Setenv("AZURE_OPENAI_API_KEY", "azure-key")
	t.Setenv("OPENAI_API_VERSION", "2024-06-01")
	if c := openai.AzureFromEnv(); c.Endpoint != "https://res.openai.azure.com/" || c.APIKey != "azure-key" || c.APIVersion != "2024-06-01" {
		t.Errorf("AzureFromEnv: %+v", c)
	}
}

// TestAzureRefuses: unknown options, a base_url, no endpoint, no key, and
// a key bound for a plain-http address off this machine.
func TestAzureRefuses(t *testing.T) {
	ok := openai.AzureConfig{Endpoint: "https://res.openai.azure.com/", APIKey: azureKey}
	for _, c := range []struct {
		spec string
		cfg  openai.AzureConfig
		want string
	}{
		{"azure-openai:d;effort=high", ok, "allowed: api_version, max_tokens, reasoning_effort, seed, temperature, top_p"},
		{"azure-openai:d;base_url=http://x.test", ok, "AZURE_OPENAI_ENDPOINT"},
		{"azure-openai:d;api_version=a&b", ok, "want a version"},
		{"azure-openai:d;temperature=9", ok, "from 0 to 2"},
		{"azure-openai:d", openai.AzureConfig{APIKey: azureKey}, "set AZURE_OPENAI_ENDPOINT"},
		{"azure-openai:d", openai.AzureConfig{Endpoint: ok.Endpoint}, "set AZURE_OPENAI_API_KEY"},
		{"azure-openai:d", openai.AzureConfig{Endpoint: "http://res.example.com/", APIKey: azureKey}, "https only"},
	} {
		if _, err := providertest.Open(t, c.spec, c.cfg, openai.NewAzure); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.spec, c.cfg.Endpoint, err, c.want)
		}
	}
	// Of two faulty options, the first in order is reported, every time.
	for range 20 {
		providertest.Refuses(t, openai.NewAzure, ok, map[string]string{"azure-openai:d;base_url=http://x.test;api_version=a&b": "want a version"})
	}
}
