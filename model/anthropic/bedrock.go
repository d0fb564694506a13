package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpeval/mcpeval/internal/provider/awscfg"
	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

// BedrockOptions lists the spec options the anthropic-bedrock provider
// accepts: the anthropic ones, with region instead of base_url.
var BedrockOptions = []string{"effort", "max_tokens", "region", "thinking"}

// BedrockConfig is how to reach Claude on Amazon Bedrock.
type BedrockConfig struct {
	// AWS is the SDK's configuration: credentials and region. When its
	// Credentials are nil, NewBedrock loads the standard chain
	// (config.LoadDefaultConfig).
	AWS aws.Config
	// Endpoint replaces https://bedrock-runtime.REGION.amazonaws.com; empty
	// means AWS_ENDPOINT_URL_BEDROCK_RUNTIME, else AWS_ENDPOINT_URL, else
	// the region's.
	Endpoint string
	// HTTPClient, Timeout and Retry are as in Config.
	HTTPClient *http.Client
	Timeout    time.Duration
	Retry      retry.Policy
}

// NewBedrock checks info's options and returns Claude on Amazon Bedrock
// ("anthropic-bedrock:MODEL_ID"), through the Anthropic SDK's bedrock
// option: the Messages API body sent to InvokeModel, signed with SigV4. It
// sends nothing to Bedrock; with no credentials in cfg it loads the
// standard AWS chain.
func NewBedrock(info model.Info, cfg BedrockConfig) (*Model, error) {
	m, err := newCloud(info, "anthropic-bedrock", cfg.Timeout, cfg.Retry)
	if err != nil {
		return nil, err
	}
	region := ""
	err = m.cloudOptions("anthropic-bedrock", BedrockOptions, func(k, v string) (bool, error) {
		if k != "region" {
			return false, nil
		}
		if err := awscfg.Region(v); err != nil {
			return true, fmt.Errorf("model spec %q: %w", info.Spec, err)
		}
		region = v
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	awsCfg, err := awscfg.Load(info.Spec, cfg.AWS, region)
	if err != nil {
		return nil, err
	}
	if awsCfg.Credentials == nil {
		return nil, fmt.Errorf("model spec %q: no AWS credentials found", info.Spec)
	}
	// The secret, so that an answer echoing it is redacted. Asked once:
	// the chain caches it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	creds, err := awsCfg.Credentials.Retrieve(ctx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("model spec %q: retrieving AWS credentials: %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
	}
	m.key = creds.SecretAccessKey
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME")
	}
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL")
	}
	if endpoint != "" {
		if _, err := specopt.Endpoint(info.Spec, endpoint); err != nil {
			return nil, err
		}
	}
	m.cloudClient(cfg.HTTPClient, bedrock.WithConfig(awsCfg), endpoint)
	return m, nil
}
