package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
)

const vertexToken = "ya29.PLANTED-anthropic-vertex-0123456789"

func vertexConfig(endpoint string) anthropic.VertexConfig {
	return anthropic.VertexConfig{
		Project: "proj-1", Location: "us-east5", Endpoint: endpoint,
		Credentials: &google.Credentials{TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: vertexToken, TokenType: "Bearer"})},
	}
}

// TestVertexProviderSuite runs the shared provider suite against Claude on
// Vertex AI: the Messages body at rawPredict, with a bearer token.
func TestVertexProviderSuite(t *testing.T) {
	providertest.Run(t, providertest.Provider{
		API: wiremodel.AnthropicVertex, HandlerKey: vertexToken, Secret: vertexToken,
		Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
			cfg := vertexConfig(url)
			cfg.Timeout, cfg.Retry = o.Timeout, o.Retry
			return providertest.Open(t, "anthropic-vertex:claude-test@20260101", cfg, anthropic.NewVertex)
		},
	})
}

// TestVertexOnTheWire: the project, the location (the spec's over the
// config's) and the model go in the path, the token in Authorization, the
// API version in the body and no model there.
func TestVertexOnTheWire(t *testing.T) {
	st := providertest.Serve(t, providertest.Provider{API: wiremodel.AnthropicVertex, HandlerKey: vertexToken})
	m := providertest.MustOpen(t, "anthropic-vertex:claude-test@20260101;location=europe-west1;effort=low", vertexConfig(st.URL), anthropic.NewVertex)
	if _, err := m.Generate(context.Background(), providertest.Request()); err != nil {
		t.Fatal(err)
	}
	r := st.H.Requests()[0]
	if r.Path != "/v1/projects/proj-1/locations/europe-west1/publishers/anthropic/models/claude-test@20260101:rawPredict" || r.Header.Get("Authorization") != "Bearer "+vertexToken {
		t.Errorf("path %s, Authorization sent %v", r.Path, r.Header.Get("Authorization") != "")
	}
	var body map[string]any
	json.Unmarshal(r.Body, &body)
	if body["model"] != nil || body["anthropic_version"] == nil || body["output_config"] == nil {
		t.Errorf("body model %v, version %v, output_config %v", body["model"], body["anthropic_version"], body["output_config"])
	}
}

func TestVertexRefuses(t *testing.T) {
	providertest.Refuses(t, anthropic.NewVertex, vertexConfig(""), map[string]string{
		"anthropic-vertex:m;base_url=http://x.test": "allowed: effort, location, max_tokens, project, thinking",
		"anthropic-vertex:m;region=x":               "allowed: effort, location, max_tokens, project, thinking",
		"anthropic-vertex:m;project=a/b":            "project name",
		"anthropic:m":                               "is not anthropic-vertex",
	})
	providertest.Refuses(t, anthropic.NewVertex, vertexConfig("ftp://x.test"), map[string]string{"anthropic-vertex:m": "not an http(s) URL"})
	noProject := vertexConfig("")
	noProject.Project = ""
	providertest.Refuses(t, anthropic.NewVertex, noProject, map[string]string{"anthropic-vertex:m": "GOOGLE_CLOUD_PROJECT"})
	// Of two faulty options, the first in order is reported, every time.
	for range 20 {
		providertest.Refuses(t, anthropic.NewVertex, vertexConfig(""), map[string]string{"anthropic-vertex:m;project=a/b;base_url=http://x.test": `option "base_url"`})
	}
}
