package specopt

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/netclient"
	"github.com/mcpeval/mcpeval/model"
)

func TestValues(t *testing.T) {
	for _, c := range []struct {
		what string
		err  error
		want string // "" when the value must be taken
	}{
		{"max_tokens 1", errOf(PositiveInt("max_tokens", "1", 64)), ""},
		{"max_tokens 0", errOf(PositiveInt("max_tokens", "0", 64)), `option max_tokens="0": want a positive whole number`},
		{"max_tokens past int32", errOf(PositiveInt("max_tokens", "2147483648", 32)), `want a positive whole number`},
		{"max_tokens words", errOf(PositiveInt("max_tokens", "many", 64)), `want a positive whole number`},
		{"seed negative", errOf(Int("seed", "-7", 64)), ""},
		{"seed fraction", errOf(Int("seed", "1.5", 64)), `option seed="1.5": want a whole number`},
		{"temperature 2", errOf(Float("temperature", "2", 0, 2, 64)), ""},
		{"temperature 2.01", errOf(Float("temperature", "2.01", 0, 2, 64)), `option temperature="2.01": want a number from 0 to 2`},
		{"top_p -0.1", errOf(Float32("top_p", "-0.1", 0, 1)), `option top_p="-0.1": want a number from 0 to 1`},
		{"top_p NaN", errOf(Float("top_p", "NaN", 0, 1, 64)), `want a number from 0 to 1`},
		{"cache false", errOf(Bool("cache", "false")), ""},
		{"cache yes", errOf(Bool("cache", "yes")), `option cache="yes": want true or false`},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("%s: refused: %v", c.what, c.err)
		case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.what, c.err, c.want)
		}
	}
	if n, _ := PositiveInt("max_tokens", "2000", 32); n != 2000 {
		t.Errorf("max_tokens 2000 read as %d", n)
	}
	if f, _ := Float32("top_p", "0.25", 0, 1); f == nil || *f != 0.25 {
		t.Errorf("top_p 0.25 read as %v", f)
	}
	if b, _ := Bool("vertex", "true"); !b {
		t.Error("vertex=true read as false")
	}
}

func errOf[T any](_ T, err error) error { return err }

func TestKeysInOrder(t *testing.T) {
	got := Keys(map[string]string{"top_p": "1", "max_tokens": "2", "base_url": "x"})
	if want := []string{"base_url", "max_tokens", "top_p"}; !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
}

func TestUnknownNamesTheProviderAndWhatItAllows(t *testing.T) {
	err := Unknown("colour", "gemini", []string{"seed", "top_p"})
	if want := `option "colour" is not one the gemini provider accepts; allowed: seed, top_p`; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

func TestProvider(t *testing.T) {
	if err := Provider(model.Info{Spec: "openai:gpt", Provider: "openai"}, "openai"); err != nil {
		t.Error(err)
	}
	err := Provider(model.Info{Spec: "openai:gpt", Provider: "openai"}, "anthropic")
	if err == nil || err.Error() != `model spec "openai:gpt": provider "openai" is not anthropic` {
		t.Errorf("got %v", err)
	}
}

func TestBaseURL(t *testing.T) {
	for _, c := range []struct {
		opts             map[string]string
		configured, want string
		err              string
	}{
		{nil, "", "https://api.example.com/", ""},
		{nil, "http://127.0.0.1:8080", "http://127.0.0.1:8080", ""},
		{map[string]string{"base_url": "http://localhost:11434/v1"}, "http://127.0.0.1:8080", "http://localhost:11434/v1", ""},
		{map[string]string{"base_url": "localhost:11434"}, "", "", `model spec "s": base URL "localhost:11434" is not an http(s) URL`},
		{nil, "ftp://example.com/", "", `base URL "ftp://example.com/" is not an http(s) URL`},
		{nil, "https:///v1", "", `is not an http(s) URL`},
	} {
		u, err := BaseURL("s", c.opts, c.configured, "https://api.example.com/")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v %q: error %v, want %q", c.opts, c.configured, err, c.err)
			}
			continue
		}
		if err != nil || u.String() != c.want {
			t.Errorf("%v %q: %v, %v; want %s", c.opts, c.configured, u, err, c.want)
		}
	}
	if _, err := Endpoint("s", "bedrock-runtime.us-east-1.amazonaws.com"); err == nil || err.Error() != `model spec "s": endpoint "bedrock-runtime.us-east-1.amazonaws.com" is not an http(s) URL` {
		t.Errorf("an endpoint without a scheme: %v", err)
	}
	if _, err := Endpoint("s", "https://bedrock-runtime.us-east-1.amazonaws.com"); err != nil {
		t.Error(err)
	}
}

func TestFromEnvKeepsTheKeyWithItsEndpoint(t *testing.T) {
	t.Setenv("X_KEY", "sk-env")
	t.Setenv("X_BASE", "https://proxy.example/")
	for _, c := range []struct {
		opts            map[string]string
		wantKey, wantBU string
	}{
		{nil, "sk-env", "https://proxy.example/"},
		{map[string]string{"base_url": "https://proxy.example/"}, "sk-env", "https://proxy.example/"},
		{map[string]string{"base_url": "https://elsewhere.example/"}, "", "https://elsewhere.example/"},
	} {
		key, base := FromEnv(c.opts, "X_KEY", "X_BASE")
		if key != c.wantKey || base != c.wantBU {
			t.Errorf("%v: key %q base %q, want %q %q", c.opts, key, base, c.wantKey, c.wantBU)
		}
	}
}

func TestDefaults(t *testing.T) {
	if Timeout(0, time.Minute) != time.Minute || Timeout(-1, time.Minute) != time.Minute || Timeout(time.Second, time.Minute) != time.Second {
		t.Error("Timeout does not keep a set timeout or default an unset one")
	}
	hc := &http.Client{Timeout: time.Second}
	if c := Client(hc); c.Timeout != time.Second || c.CheckRedirect == nil || hc.CheckRedirect != nil {
		t.Error("Client does not keep a given client's settings, add the redirect policy to a copy, or leave the given one alone")
	}
	own := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}
	if Client(own) != own {
		t.Error("Client replaced a given client that has a redirect policy of its own")
	}
	if c := Client(nil); c == nil || c.Transport != netclient.Transport() || c.CheckRedirect == nil {
		t.Error("Client(nil) is not over the shared pool with the redirect policy")
	}
}
