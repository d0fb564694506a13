package openai

import (
	"fmt"
	"net"
	"os"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/azure"
	"github.com/openai/openai-go/v3/option"

	"github.com/mcpeval/mcpeval/internal/provider/specopt"
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
	if err := specopt.Provider(info, "azure-openai"); err != nil {
		return nil, err
	}
	m := &Model{info: info, key: cfg.APIKey, timeout: specopt.Timeout(cfg.Timeout, DefaultTimeout), policy: cfg.Retry}
	version := cfg.APIVersion
	opts := map[string]string{}
	for _, k := range specopt.Keys(info.Options) {
		v := info.Options[k]
		switch k {
		case "api_version":
			if v == "" || strings.ContainsAny(v, "&#?/ ") {
				return nil, fmt.Errorf("model spec %q: option api_version=%q: want a version such as %s", info.Spec, v, DefaultAzureAPIVersion)
			}
			version = v
		case "base_url":
			return nil, fmt.Errorf("model spec %q: %w (the endpoint comes from AZURE_OPENAI_ENDPOINT)", info.Spec, specopt.Unknown(k, "azure-openai", AzureOptions))
		default:
			opts[k] = v
		}
	}
	if version == "" {
		version = DefaultAzureAPIVersion
	}
	set, err := options(opts, "azure-openai", AzureOptions)
	if err != nil {
		return nil, fmt.Errorf("model spec %q: %w", info.Spec, err)
	}
	m.set = set
	if cfg.Endpoint == "" {
		return nil, fmt.Errorf("model spec %q: no endpoint: set AZURE_OPENAI_ENDPOINT to the resource's https://NAME.openai.azure.com/", info.Spec)
	}
	u, err := specopt.Endpoint(info.Spec, cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("model spec %q: no API key: set AZURE_OPENAI_API_KEY", info.Spec)
	}
	ro := []option.RequestOption{
		azure.WithEndpoint(u.String(), version),
		azure.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(specopt.Client(cfg.HTTPClient)),
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
