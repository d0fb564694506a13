package anthropic

import (
	"fmt"
	"net/http"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

// What Claude on a cloud (anthropic-bedrock, anthropic-vertex) shares: the
// provider check, the anthropic options, the endpoint check and the client.

// newCloud checks that info names provider and returns the model with its
// timeout and retry policy, before any option is read.
func newCloud(info model.Info, provider string, timeout time.Duration, policy retry.Policy) (*Model, error) {
	if err := specopt.Provider(info, provider); err != nil {
		return nil, err
	}
	return &Model{info: info, timeout: specopt.Timeout(timeout, DefaultTimeout), policy: policy, maxTokens: DefaultMaxTokens}, nil
}

// cloudOptions applies the spec's options to m, in order: own takes the
// cloud's own options (saying whether k is one, or what is wrong with its
// value), base_url is refused (the cloud has its endpoint), and the rest
// are the anthropic ones. Errors name provider and the options it allows.
func (m *Model) cloudOptions(provider string, allowed []string, own func(k, v string) (bool, error)) error {
	opts := map[string]string{}
	for _, k := range specopt.Keys(m.info.Options) {
		v := m.info.Options[k]
		ok, err := own(k, v)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		if k == "base_url" {
			return fmt.Errorf("model spec %q: %w", m.info.Spec, specopt.Unknown(k, provider, allowed))
		}
		opts[k] = v
	}
	if err := m.options(opts, provider, allowed); err != nil {
		return fmt.Errorf("model spec %q: %w", m.info.Spec, err)
	}
	return nil
}

// cloudClient sets m's client: hc (a plain one when nil), no SDK retries
// (the retry policy is ours), the cloud's auth, and endpoint when set.
func (m *Model) cloudClient(hc *http.Client, auth option.RequestOption, endpoint string) {
	ro := []option.RequestOption{
		option.WithHTTPClient(specopt.Client(hc)),
		option.WithMaxRetries(0),
		auth,
	}
	if endpoint != "" {
		ro = append(ro, option.WithBaseURL(endpoint))
	}
	m.client = sdk.NewClient(ro...)
}
