package anthropic

import (
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

func TestFromEnvKeepsTheKeyWithItsEndpoint(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-env")
	t.Setenv("ANTHROPIC_BASE_URL", "http://env.test/v1")
	if c := FromEnv(model.Info{}); c.APIKey != "sk-env" || c.BaseURL != "http://env.test/v1" {
		t.Errorf("env endpoint: %+v", c)
	}
	c := FromEnv(model.Info{Options: map[string]string{"base_url": "http://other.test/v1"}})
	if c.APIKey != "" || c.BaseURL != "http://other.test/v1" {
		t.Errorf("a spec base_url got the environment's key: %+v", c)
	}
	if c := FromEnv(model.Info{Options: map[string]string{"base_url": "http://env.test/v1"}}); c.APIKey != "sk-env" {
		t.Errorf("the same endpoint lost its key: %+v", c)
	}
}
