package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
)

const (
	awsKeyID  = "AKIAANTHROPICTEST01"
	awsSecret = "PLANTED/anthropic/bedrock/secret/0123456789"
)

func bedrockConfig(endpoint string) anthropic.BedrockConfig {
	return anthropic.BedrockConfig{
		AWS:      aws.Config{Region: "us-east-2", Credentials: credentials.NewStaticCredentialsProvider(awsKeyID, awsSecret, "")},
		Endpoint: endpoint,
	}
}

// TestBedrockProviderSuite runs the shared provider suite against Claude
// on Bedrock: the Messages body at InvokeModel, signed with SigV4.
func TestBedrockProviderSuite(t *testing.T) {
	t.Setenv("AWS_BEARER_TOKEN_BEDROCK", "")
	providertest.Run(t, providertest.Provider{
		API: wiremodel.AnthropicBedrock, HandlerKey: awsKeyID, Secret: awsSecret,
		Open: func(t *testing.T, url string, o providertest.Options) (model.Model, error) {
			cfg := bedrockConfig(url)
			cfg.Timeout, cfg.Retry = o.Timeout, o.Retry
			return providertest.Open(t, "anthropic-bedrock:anthropic.claude-test-v1:0", cfg, anthropic.NewBedrock)
		},
	})
}

// TestBedrockOnTheWire: the model id goes in the path, not the body; the
// API version in the body; the signature is for bedrock in the region; the
// options apply as on the first-party API.
func TestBedrockOnTheWire(t *testing.T) {
	t.Setenv("AWS_BEARER_TOKEN_BEDROCK", "")
	st := providertest.Serve(t, providertest.Provider{API: wiremodel.AnthropicBedrock, HandlerKey: awsKeyID})
	m := providertest.MustOpen(t, "anthropic-bedrock:anthropic.claude-test-v1:0;region=eu-central-1;thinking=2048", bedrockConfig(st.URL), anthropic.NewBedrock)
	resp, err := m.Generate(context.Background(), providertest.Request())
	if err != nil {
		t.Fatal(err)
	}
	r := st.H.Requests()[0]
	sig := wiremodel.SigV4RE.FindStringSubmatch(r.Header.Get("Authorization"))
	if r.Path != "/model/anthropic.claude-test-v1:0/invoke" || sig == nil || sig[3] != "eu-central-1" {
		t.Errorf("path %s, Authorization %q", r.Path, r.Header.Get("Authorization"))
	}
	var body map[string]any
	json.Unmarshal(r.Body, &body)
	if body["model"] != nil || body["anthropic_version"] == nil || body["max_tokens"] != 2048.0+8192 {
		t.Errorf("body model %v, version %v, max_tokens %v", body["model"], body["anthropic_version"], body["max_tokens"])
	}
	if len(resp.Message.Calls()) != 1 || resp.Message.Blocks[0].Kind != model.Thinking {
		t.Errorf("answer %+v", resp.Message)
	}
}

// TestBedrockRefuses: base_url, an unknown option, a bad region, no region.
func TestBedrockRefuses(t *testing.T) {
	providertest.Refuses(t, anthropic.NewBedrock, bedrockConfig(""), map[string]string{
		"anthropic-bedrock:m;base_url=http://x.test": "allowed: effort, max_tokens, region, thinking",
		"anthropic-bedrock:m;top_k=3":                "allowed: effort, max_tokens, region, thinking",
		"anthropic-bedrock:m;region=us/east":         "AWS region",
		"anthropic:m":                                "is not anthropic-bedrock",
	})
	providertest.Refuses(t, anthropic.NewBedrock, bedrockConfig("ftp://x.test"), map[string]string{"anthropic-bedrock:m": "not an http(s) URL"})
	noRegion := bedrockConfig("")
	noRegion.AWS.Region = ""
	providertest.Refuses(t, anthropic.NewBedrock, noRegion, map[string]string{"anthropic-bedrock:m": "AWS_REGION"})
	// Of two faulty options, the first in order is reported, every time.
	for range 20 {
		providertest.Refuses(t, anthropic.NewBedrock, bedrockConfig(""), map[string]string{"anthropic-bedrock:m;region=us/east;base_url=http://x.test": `option "base_url"`})
	}
}
