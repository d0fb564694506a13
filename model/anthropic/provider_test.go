package anthropic_test

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
)

const suiteKey = "sk-ant-PLANTED-suite-0123456789"

// TestProviderSuite runs the shared provider suite through the Messages
// API.
func TestProviderSuite(t *testing.T) {
	providertest.Run(t, providertest.Provider{
		API: wiremodel.Anthropic, HandlerKey: suiteKey, Secret: suiteKey,
		Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
			return providertest.Open(t, "anthropic:claude-test", anthropic.Config{APIKey: suiteKey, BaseURL: url, Timeout: o.Timeout, Retry: o.Retry}, anthropic.New)
		},
	})
}
