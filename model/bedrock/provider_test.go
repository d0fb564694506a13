package bedrock_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/bedrock"
)

const (
	accessKeyID = "AKIAWIREMODELTEST01"
	secretKey   = "wJalrXUtnFEMI/PLANTED/bedrock-secret-0123456789"
)

// staticEnv gives the standard AWS chain static test credentials and a
// region from the environment, and nothing else to find.
func staticEnv(t *testing.T) {
	t.Helper()
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID":                accessKeyID,
		"AWS_SECRET_ACCESS_KEY":            secretKey,
		"AWS_SESSION_TOKEN":                "",
		"AWS_REGION":                       "eu-west-3",
		"AWS_DEFAULT_REGION":               "",
		"AWS_PROFILE":                      "",
		"AWS_CONFIG_FILE":                  none,
		"AWS_SHARED_CREDENTIALS_FILE":      none,
		"AWS_EC2_METADATA_DISABLED":        "true",
		"AWS_BEARER_TOKEN_BEDROCK":         "",
		"AWS_ENDPOINT_URL":                 "",
		"AWS_ENDPOINT_URL_BEDROCK_RUNTIME": "",
	} {
		t.Setenv(k, v)
	}
}

// TestProviderSuite runs the shared provider suite through the Converse
// API, signed with credentials the standard chain finds in the
// environment; the stand-in refuses a request without a well-formed SigV4
// signature by the planted access key id.
func TestProviderSuite(t *testing.T) {
	staticEnv(t)
	providertest.Run(t, providertest.Provider{
		API: wiremodel.Bedrock, HandlerKey: accessKeyID, Secret: secretKey,
		Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
			return providertest.Open(t, "bedrock:anthropic.claude-test-v1:0", bedrock.Config{BaseEndpoint: url, Timeout: o.Timeout, Retry: o.Retry}, bedrock.New)
		},
	})
}
