// Package provider opens a model from its spec: fake:NAME, script:FILE,
// anthropic:MODEL, openai:MODEL, gemini:MODEL, bedrock:MODEL_ID,
// azure-openai:DEPLOYMENT, anthropic-bedrock:MODEL_ID or
// anthropic-vertex:MODEL, with options after semicolons
// ("anthropic:claude-sonnet-4-5;effort=medium;max_tokens=8192").
//
// It is the one place that knows every provider; the runner sees only
// model.Model.
package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
	"github.com/mcpeval/mcpeval/model/bedrock"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/gemini"
	"github.com/mcpeval/mcpeval/model/openai"
	"github.com/mcpeval/mcpeval/model/script"
	"github.com/mcpeval/mcpeval/suite"
)

// Options are what opening a model may need besides its spec.
type Options struct {
	// Suite is the suite under test; fake models answer from its key, and
	// a script reads its cases' prompt templates for {{token}}.
	Suite *suite.Suite
}

// Real reports whether spec names a provider that calls a paid model API.
func Real(spec string) bool {
	p, _, _ := strings.Cut(spec, ":")
	_, ok := real[p]
	return ok
}

// Open returns the model spec names and its description.
func Open(spec string, opts Options) (model.Model, model.Info, error) {
	info, err := model.ParseSpec(spec)
	if err != nil {
		return nil, info, err
	}
	switch info.Provider {
	case "fake":
		if opts.Suite == nil {
			return nil, info, fmt.Errorf("model %s: a fake model needs a suite", spec)
		}
		m, err := fake.NewWithOptions(info.Name, info.Options, opts.Suite)
		info.Fake = true
		return m, info, err
	case "script":
		s, err := script.Load(strings.TrimPrefix(spec, "script:"))
		if err != nil {
			return nil, info, err
		}
		s.Suite = opts.Suite // for {{token}} and {{fact.NAME}} in the script
		if err := s.CheckCases(opts.Suite); err != nil {
			return nil, info, fmt.Errorf("script %s names cases the suite does not have:\n%w", s.Path, err)
		}
		info.Name = strings.TrimPrefix(spec, "script:")
		info.Options = nil
		info.Fake = true
		return s, info, nil
	}
	if open, ok := real[info.Provider]; ok {
		m, err := open(info)
		return m, info, err
	}
	return nil, info, fmt.Errorf("model %s: unknown provider %q (have fake, script%s)", spec, info.Provider, realNames())
}

// real are the providers that call a model API, by name. Keys and base
// URLs come from the environment only (ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL) or, for base URLs,
// the spec's base_url option.
var real = map[string]func(model.Info) (model.Model, error){
	"anthropic": func(info model.Info) (model.Model, error) {
		return anthropic.New(info, anthropic.FromEnv(info))
	},
	"openai": func(info model.Info) (model.Model, error) {
		return openai.New(info, openai.FromEnv(info))
	},
	// GEMINI_API_KEY or GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL; with
	// vertex=true Google Cloud credentials, GOOGLE_CLOUD_PROJECT,
	// GOOGLE_CLOUD_LOCATION and GOOGLE_VERTEX_BASE_URL.
	"gemini": func(info model.Info) (model.Model, error) {
		return gemini.New(info, gemini.FromEnv(info))
	},
	// The standard AWS chain: credentials, AWS_REGION, and an endpoint
	// from AWS_ENDPOINT_URL_BEDROCK_RUNTIME.
	"bedrock": func(info model.Info) (model.Model, error) {
		return bedrock.New(info, bedrock.Config{})
	},
	// Claude on Bedrock through the Anthropic SDK: the standard AWS chain,
	// AWS_REGION, AWS_ENDPOINT_URL_BEDROCK_RUNTIME.
	"anthropic-bedrock": func(info model.Info) (model.Model, error) {
		return anthropic.NewBedrock(info, anthropic.BedrockConfig{})
	},
	// Claude on Vertex AI through the Anthropic SDK: Google Cloud
	// credentials, ANTHROPIC_VERTEX_PROJECT_ID, CLOUD_ML_REGION,
	// ANTHROPIC_VERTEX_BASE_URL.
	"anthropic-vertex": func(info model.Info) (model.Model, error) {
		return anthropic.NewVertex(info, anthropic.VertexFromEnv())
	},
	// AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, OPENAI_API_VERSION.
	"azure-openai": func(info model.Info) (model.Model, error) {
		return openai.NewAzure(info, openai.AzureFromEnv())
	},
}

func realNames() string {
	var s string
	for _, n := range Names()[2:] {
		s += ", " + n
	}
	return s
}

// Names returns every provider Open knows: fake and script first, then
// the real ones (realNames' order, then any other in name order).
func Names() []string {
	names := []string{"fake", "script"}
	known := []string{"anthropic", "openai", "gemini", "bedrock", "azure-openai", "anthropic-bedrock", "anthropic-vertex"}
	for _, n := range known {
		if _, ok := real[n]; ok {
			names = append(names, n)
		}
	}
	var rest []string
	for n := range real {
		if !slices.Contains(known, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}
