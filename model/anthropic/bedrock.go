package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"

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
		if v == "" || strings.ContainsAny(v, "/?#:") {
			return true, fmt.Errorf("model spec %q: option region=%q: want an AWS region such as us-east-1", info.Spec, v)
		}
		region = v
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	awsCfg := cfg.AWS
	if awsCfg.Credentials == nil {
		var lo []func(*config.LoadOptions) error
		if region != "" {
			lo = append(lo, config.WithRegion(region))
		}
		var err error
		awsCfg, err = config.LoadDefaultConfig(context.Background(), lo...)
		if err != nil {
			return nil, fmt.Errorf("model spec %q: loading AWS credentials and region: %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
		}
	}
	if region != "" {
		awsCfg.Region = region
	}
	if awsCfg.Region == "" {
		return nil, fmt.Errorf("model spec %q: no AWS region: set AWS_REGION, or the region= option", info.Spec)
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
		if err := checkEndpoint(info.Spec, endpoint); err != nil {
			return nil, err
		}
	}
	m.cloudClient(cfg.HTTPClient, bedrock.WithConfig(awsCfg), endpoint)
	return m, nil
}
