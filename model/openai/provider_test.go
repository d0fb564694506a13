package openai_test

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/openai"
)

const (
	suiteKey = "sk-proj-PLANTED-suite-0123456789abcdef"
	azureKey = "PLANTED0azure0key0123456789abcdef"
)

// TestProviderSuite runs the shared provider suite through chat
// completions, at OpenAI's path and at an Azure OpenAI deployment's.
func TestProviderSuite(t *testing.T) {
	t.Run("openai", func(t *testing.T) {
		providertest.Run(t, providertest.Provider{
			API: wiremodel.OpenAI, HandlerKey: suiteKey, Secret: suiteKey,
			Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
				return providertest.Open(t, "openai:gpt-test", openai.Config{APIKey: suiteKey, BaseURL: url + "/v1", Timeout: o.Timeout, Retry: o.Retry}, openai.New)
			},
		})
	})
	t.Run("azure-openai", func(t *testing.T) {
		providertest.Run(t, providertest.Provider{
			API: wiremodel.AzureOpenAI, HandlerKey: azureKey, Secret: azureKey,
			Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
				return providertest.Open(t, "azure-openai:my-deployment", openai.AzureConfig{
					Endpoint: url, APIKey: azureKey, Config: openai.Config{Timeout: o.Timeout, Retry: o.Retry},
				}, openai.NewAzure)
			},
		})
	})
}
