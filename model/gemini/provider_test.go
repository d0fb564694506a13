package gemini_test

import (
	"context"
	"testing"

	"cloud.google.com/go/auth"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/gemini"
)

const (
	apiKey = "AIza-PLANTED-gemini-0123456789"
	token  = "ya29.PLANTED-vertex-token-0123456789"
)

// TestProviderSuite runs the shared provider suite through the Gemini API
// (an API key in x-goog-api-key) and through Vertex AI (an OAuth token from
// the credentials).
func TestProviderSuite(t *testing.T) {
	t.Run("gemini-api", func(t *testing.T) {
		providertest.Run(t, providertest.Provider{
			API: wiremodel.Gemini, HandlerKey: apiKey, Secret: apiKey,
			Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
				return providertest.Open(t, "gemini:gemini-test", gemini.Config{APIKey: apiKey, BaseURL: url, Timeout: o.Timeout, Retry: o.Retry}, gemini.New)
			},
		})
	})
	t.Run("vertex", func(t *testing.T) {
		providertest.Run(t, providertest.Provider{
			API: wiremodel.Gemini, HandlerKey: token, Secret: token,
			Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
				return providertest.Open(t, "gemini:gemini-test;vertex=true;project=proj-1;location=us-central1", gemini.Config{
					BaseURL: url, Credentials: staticToken(token), Timeout: o.Timeout, Retry: o.Retry,
				}, gemini.New)
			},
		})
	})
}

type tokenProvider string

func (p tokenProvider) Token(context.Context) (*auth.Token, error) {
	return &auth.Token{Value: string(p), Type: "Bearer"}, nil
}

func staticToken(tok string) *auth.Credentials {
	return auth.NewCredentials(&auth.CredentialsOptions{TokenProvider: tokenProvider(tok)})
}
