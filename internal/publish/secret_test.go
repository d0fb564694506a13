package publish

import (
	"strings"
	"testing"
)

// TestKnownSecretRefused plants a provider key of no known shape in a
// tool result: publishing refuses the run, naming the variable and never
// the value, and writes nothing; without the key in the environment the
// same run publishes.
func TestKnownSecretRefused(t *testing.T) {
	const key = "groq-CUSTOMKEY-PLANTED-31337"
	plant := func(e *env) {
		a := &e.rec.Attempts[0]
		a.Answer += " (the tool said " + key + ")"
	}
	defer func(f func() []string) { environ = f }(environ)
	environ = func() []string { return []string{"PATH=/bin", "GROQ_API_KEY=" + key} }

	e := setup(t, "testdata/suite.yaml")
	plant(e)
	before := files(t, e.dir)
	out := e.publish()
	if len(out.Refusals) != 1 || out.Refusals[0].Rule != "known-secret" || !strings.Contains(out.Refusals[0].Message, "GROQ_API_KEY") {
		t.Fatalf("refusals %v, want known-secret naming GROQ_API_KEY", out.Refusals)
	}
	if strings.Contains(out.Refusals[0].String(), key) {
		t.Errorf("the refusal quotes the key: %s", out.Refusals[0])
	}
	if after := files(t, e.dir); len(after) != len(before) {
		t.Errorf("a refused run wrote %d files", len(after)-len(before))
	}

	environ = func() []string { return []string{"PATH=/bin", "GROQ_API_KEY=another-key-entirely"} }
	e = setup(t, "testdata/suite.yaml")
	plant(e)
	if out := e.publish(); len(out.Refusals) > 0 {
		t.Errorf("refused without the key in the environment: %v", out.Refusals)
	}
}
