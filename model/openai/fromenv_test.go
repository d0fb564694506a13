package openai

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/model"
)

func TestFromEnvKeepsTheKeyWithItsEndpoint(t *testing.T) {
	providertest.EnvKeyStaysWithItsEndpoint(t, "OPENAI_API_KEY", "OPENAI_BASE_URL", func(info model.Info) (string, string) {
		c := FromEnv(info)
		return c.APIKey, c.BaseURL
	})
}
