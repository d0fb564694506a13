package openai

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/azure"
	"github.com/openai/openai-go/v3/option"

	"github.com/mcpeval/mcpeval/model"
)

// DefaultAzureAPIVersion is the Azure OpenAI API version when neither the
// spec nor OPENAI_API_VERSION names one.
const DefaultAzureAPIVersion = "2024-10-21"

// AzureOptions lists the spec options the azure-openai provider accepts.
var AzureOptions = []string{"api_version", "max_tokens", "reasoning_effort", "seed", "temperature", "top_p"}

// AzureConfig is how to reach an Azure OpenAI resource.
type AzureConfig struct {
	// Endpoint is the resource's endpoint, https://NAME.openai.azure.com/.
	Endpoint string
	// APIKey is the resource's key, sent as the api-key header.
	APIKey string
	// APIVersion is the api-version query; the spec's api_version option
	// takes precedence; empty means DefaultAzureAPIVersion.
	APIVersion string
	// The rest is as in Config.
	Config
}

// AzureFromEnv returns the AzureConfig the environment gives: the
// endpoint from AZURE_OPENAI_ENDPOINT, the key from AZURE_OPENAI_API_KEY
// and the API version from OPENAI_API_VERSION.
func AzureFromEnv() AzureConfig {
	return AzureConfig{
		Endpoint:   os.Getenv("AZURE_OPENAI_ENDPOINT"),
		APIKey:     os.Getenv("AZURE_OPENAI_API_KEY"),
		APIVersion: os.Getenv("OPENAI_API_VERSION"),
	}
}

// NewAzure checks info's options and returns the model for the deployment
// info.Name of an Azure OpenAI resource ("azure-openai:DEPLOYMENT"). It sends
// nothing. The key goes only to the endpoint it came with.
func NewAzure(info model.Info, cfg AzureConfig) (*Model, error) {
	if info.Provider != "azure-openai" {
		return nil, fmt.Errorf("model spec %q: provider %q is not azure-openai", info.Spec, info.Provider)
	}
	m := &Model{info: info, key: cfg.APIKey, timeout: cfg.Timeout, policy: cfg.Retry}
	if m.timeout <= 0 {
		m.timeout = DefaultTimeout
	}
	version := cfg.APIVersion
	opts := map[string]string{}
	for k, v := range info.Options {
		switch k {
		case "api_version":
			if v == "" || strings.ContainsAny(v, "&#?/ ") {
				return nil, fmt.Errorf("model spec %q: option api_version=%q: want a version such as %s", info.Spec, v, DefaultAzureAPIVersion)
			}
			version = v
		case "base_url":
			return nil, fmt.Errorf("model spec %q: option %q is not one the azure-openai provider accepts; allowed: %s (the endpoint comes from AZURE_OPENAI_ENDPOINT)", info.Spec, k, strings.Join(AzureOptions, ", "))
		default:
			opts[k] = v
		}
	}
	if version == "" {
		version = DefaultAzureAPIVersion
	}
	set, err := options(opts)
	if err != nil {
		return nil, fmt.Errorf("model spec %q: %s", info.Spec, strings.Replace(err.Error(), "the openai provider accepts; allowed: "+strings.Join(Options, ", "), "the azure-openai provider accepts; allowed: "+strings.Join(AzureOptions, ", "), 1))
	}
	m.set = set
	if cfg.Endpoint == "" {
		return nil, fmt.Errorf("model spec %q: no endpoint: set AZURE_OPENAI_ENDPOINT to the resource's https://NAME.openai.azure.com/", info.Spec)
	}
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("model spec %q: endpoint %q is not an http(s) URL", info.Spec, cfg.Endpoint)
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("model spec %q: no API key: set AZURE_OPENAI_API_KEY", info.Spec)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	ro := []option.RequestOption{
		azure.WithEndpoint(u.String(), version),
		azure.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if u.Scheme == "http" {
		if !loopback(u.Hostname()) {
			return nil, fmt.Errorf("model spec %q: endpoint %q: the key is sent over https only, or to this machine", info.Spec, cfg.Endpoint)
		}
		// A local stand-in (tests, a proxy on this machine): the SDK
		// sends a key over plain http only to a loopback address.
		ro = append(ro, azure.WithUnsafeAllowHTTP())
	}
	m.client = sdk.NewClient(ro...)
	return m, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
