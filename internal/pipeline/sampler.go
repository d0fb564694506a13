package pipeline

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// SamplerSpec is the spec of the model suite s names to answer its
// servers' sampling requests (sampling.model); empty when it names none.
func SamplerSpec(s *suite.Suite) string {
	if s == nil || s.Sampling == nil {
		return ""
	}
	return s.Sampling.Model
}

// OpenSampler opens the model suite s names to answer its servers'
// sampling requests, for runner.Config's Sampler and SamplerInfo; nil
// when it names none, and the model under test answers them. Whether a
// paid one may be called is the caller's to check first, as for the
// model under test.
func OpenSampler(s *suite.Suite) (model.Model, model.Info, error) {
	spec := SamplerSpec(s)
	if spec == "" {
		return nil, model.Info{}, nil
	}
	m, info, err := provider.Open(spec, provider.Options{Suite: s})
	if err != nil {
		return nil, info, fmt.Errorf("opening the suite's sampling model: %w", err)
	}
	return m, info, nil
}
