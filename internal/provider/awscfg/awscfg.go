// Package awscfg opens the AWS configuration both Bedrock providers
// (bedrock, anthropic-bedrock) sign their requests with: the spec's region
// option read the same way, and the standard credential chain loaded when
// none is given.
package awscfg

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/mcpeval/mcpeval/internal/retry"
)

// Region checks the value of a spec's region option.
func Region(v string) error {
	if v == "" || strings.ContainsAny(v, "/?#:") {
		return fmt.Errorf("option region=%q: want an AWS region such as us-east-1", v)
	}
	return nil
}

// Load returns cfg or, when cfg has no credentials, the standard chain's
// configuration (config.LoadDefaultConfig: environment, shared files, SSO,
// roles, instance metadata), in region when it is not empty. It refuses a
// configuration that ends with no region. spec names the model in errors.
func Load(spec string, cfg aws.Config, region string) (aws.Config, error) {
	if cfg.Credentials == nil {
		var opts []func(*config.LoadOptions) error
		if region != "" {
			opts = append(opts, config.WithRegion(region))
		}
		var err error
		cfg, err = config.LoadDefaultConfig(context.Background(), opts...)
		if err != nil {
			return cfg, fmt.Errorf("model spec %q: loading AWS credentials and region: %s", spec, retry.Short(retry.Redact(err.Error()), 300))
		}
	}
	if region != "" {
		cfg.Region = region
	}
	if cfg.Region == "" {
		return cfg, fmt.Errorf("model spec %q: no AWS region: set AWS_REGION, or the region= option", spec)
	}
	return cfg, nil
}
