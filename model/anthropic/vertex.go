package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/vertex"
	"golang.org/x/oauth2/google"

	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

// VertexOptions lists the spec options the anthropic-vertex provider
// accepts: the anthropic ones, with project and location instead of
// base_url.
var VertexOptions = []string{"effort", "location", "max_tokens", "project", "thinking"}

// VertexConfig is how to reach Claude on Vertex AI.
type VertexConfig struct {
	// Project and Location name the Google Cloud project and region; the
	// spec's project and location options take precedence.
	Project, Location string
	// Credentials authorize the requests; nil means Application Default
	// Credentials, found when the model is opened.
	Credentials *google.Credentials
	// Endpoint replaces the region's Vertex AI endpoint; empty means it.
	Endpoint string
	// HTTPClient, Timeout and Retry are as in Config.
	HTTPClient *http.Client
	Timeout    time.Duration
	Retry      retry.Policy
}

// VertexFromEnv returns the VertexConfig the environment gives: the
// project from ANTHROPIC_VERTEX_PROJECT_ID or GOOGLE_CLOUD_PROJECT, the
// region from CLOUD_ML_REGION or GOOGLE_CLOUD_LOCATION, the endpoint from
// ANTHROPIC_VERTEX_BASE_URL.
func VertexFromEnv() VertexConfig {
	first := func(ks ...string) string {
		for _, k := range ks {
			if v := os.Getenv(k); v != "" {
				return v
			}
		}
		return ""
	}
	return VertexConfig{
		Project:  first("ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_CLOUD_PROJECT"),
		Location: first("CLOUD_ML_REGION", "GOOGLE_CLOUD_LOCATION"),
		Endpoint: os.Getenv("ANTHROPIC_VERTEX_BASE_URL"),
	}
}

// NewVertex checks info's options and returns Claude on Vertex AI
// ("anthropic-vertex:MODEL"), through the Anthropic SDK's vertex option: the
// Messages API body sent to rawPredict with a Google Cloud access token. It
// sends nothing to Vertex AI; with no credentials in cfg it looks for
// Application Default Credentials.
func NewVertex(info model.Info, cfg VertexConfig) (*Model, error) {
	m, err := newCloud(info, "anthropic-vertex", cfg.Timeout, cfg.Retry)
	if err != nil {
		return nil, err
	}
	err = m.cloudOptions("anthropic-vertex", VertexOptions, func(k, v string) (bool, error) {
		if k != "project" && k != "location" {
			return false, nil
		}
		if v == "" || strings.ContainsAny(v, "/?#:") {
			return true, fmt.Errorf("model spec %q: option %s=%q: want a Google Cloud %s name", info.Spec, k, v, k)
		}
		if k == "project" {
			cfg.Project = v
		} else {
			cfg.Location = v
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if cfg.Project == "" || cfg.Location == "" {
		return nil, fmt.Errorf("model spec %q: Vertex AI needs a project and a location: set ANTHROPIC_VERTEX_PROJECT_ID (or GOOGLE_CLOUD_PROJECT) and CLOUD_ML_REGION (or GOOGLE_CLOUD_LOCATION), or the project= and location= options", info.Spec)
	}
	if cfg.Endpoint != "" {
		if _, err := specopt.Endpoint(info.Spec, cfg.Endpoint); err != nil {
			return nil, err
		}
	}
	creds := cfg.Credentials
	if creds == nil {
		var err error
		// The context stays with the credentials, which refresh the token
		// with it for as long as the run lasts: it must not end.
		creds, err = google.FindDefaultCredentials(context.Background(), "https://www.googleapis.com/auth/cloud-platform")
		if err != nil {
			return nil, fmt.Errorf("model spec %q: finding Google Cloud credentials for Vertex AI (run gcloud auth application-default login): %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
		}
	}
	// The token the requests will carry, so that an answer echoing it is
	// redacted (a token refreshed later is still caught by the
	// Authorization and Bearer patterns).
	if tok, err := creds.TokenSource.Token(); err == nil {
		m.key = tok.AccessToken
	} else {
		return nil, fmt.Errorf("model spec %q: getting a Google Cloud access token: %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
	}
	m.cloudClient(cfg.HTTPClient, vertex.WithCredentials(context.Background(), cfg.Location, cfg.Project, creds), cfg.Endpoint)
	return m, nil
}
