package suite

import "testing"

// TestSamplingSetting checks that sampling.model is read, and that a
// value that is no model spec is a located error.
func TestSamplingSetting(t *testing.T) {
	s, err := Load(write(t, t.TempDir(), "suite.yaml", "name: x\nsampling:\n  model: \"fake:perfect\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Sampling == nil || s.Sampling.Model != "fake:perfect" {
		t.Errorf("sampling read as %+v", s.Sampling)
	}
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"no provider", "name: x\nsampling:\n  model: perfect\n", []string{`suite.yaml:3:10: sampling: model spec "perfect": want provider:name`}},
		{"empty", "name: x\nsampling: {model: \"\"}\n", []string{`suite.yaml:2:19: sampling: model is empty`}},
		{"no model", "name: x\nsampling: {}\n", []string{`suite.yaml:2: sampling: model is empty`}},
		{"bad option", "name: x\nsampling: {model: \"fake:perfect;seed\"}\n", []string{`suite.yaml:2:19: sampling: model spec "fake:perfect;seed": option "seed" is not key=value`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want...)
		})
	}
}
