package anthropic

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

// What Claude on a cloud (anthropic-bedrock, anthropic-vertex) shares: the
// provider check, the anthropic options, the endpoint check and the client.

// newCloud checks that info names provider and returns the model with its
// timeout and retry policy, before any option is read.
func newCloud(info model.Info, provider string, timeout time.Duration, policy retry.Policy) (*Model, error) {
	if info.Provider != provider {
		return nil, fmt.Errorf("model spec %q: provider %q is not %s", info.Spec, info.Provider, provider)
	}
	m := &Model{info: info, timeout: timeout, policy: policy, maxTokens: DefaultMaxTokens}
	if m.timeout <= 0 {
		m.timeout = DefaultTimeout
	}
	return m, nil
}

// cloudOptions applies the spec's options to m: own takes the cloud's own
// options (saying whether k is one, or what is wrong with its value),
// base_url is refused (the cloud has its endpoint), and the rest are the
// anthropic ones. Errors name provider and the options it allows.
func (m *Model) cloudOptions(provider string, allowed []string, own func(k, v string) (bool, error)) error {
	opts := map[string]string{}
	for k, v := range m.info.Options {
		ok, err := own(k, v)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		if k == "base_url" {
			return fmt.Errorf("model spec %q: option %q is not one the %s provider accepts; allowed: %s", m.info.Spec, k, provider, strings.Join(allowed, ", "))
		}
		opts[k] = v
	}
	if err := m.options(opts); err != nil {
		return fmt.Errorf("model spec %q: %s", m.info.Spec, strings.Replace(err.Error(), "the anthropic provider accepts; allowed: "+strings.Join(Options, ", "), "the "+provider+" provider accepts; allowed: "+strings.Join(allowed, ", "), 1))
	}
	return nil
}

// checkEndpoint reports an endpoint that is not an http(s) URL.
func checkEndpoint(spec, endpoint string) error {
	if u, err := url.Parse(endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("model spec %q: endpoint %q is not an http(s) URL", spec, endpoint)
	}
	return nil
}

// cloudClient sets m's client: hc (a plain one when nil), no SDK retries
// (the retry policy is ours), the cloud's auth, and endpoint when set.
func (m *Model) cloudClient(hc *http.Client, auth option.RequestOption, endpoint string) {
	if hc == nil {
		hc = &http.Client{}
	}
	ro := []option.RequestOption{
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		auth,
	}
	if endpoint != "" {
		ro = append(ro, option.WithBaseURL(endpoint))
	}
	m.client = sdk.NewClient(ro...)
}
