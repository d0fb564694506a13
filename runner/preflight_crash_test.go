package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/target"
)

// crashPreflightSuite is faultSuite with a preflight that calls get_total.
const crashPreflightSuite = `preflight:
  - tool: get_total
    expect: {total: 42}
` + faultSuite

// TestPreflightCrashIsAnError runs a suite whose server crashes on the
// preflight's call: the run and validate fail with the server's stderr,
// and neither calls it a drift of the data (ErrInvalid, exit 3).
func TestPreflightCrashIsAnError(t *testing.T) {
	s := loadSuite(t, crashPreflightSuite)
	m, _ := fake.New("perfect", s)
	tc := faultserver.Target("-crash-on", "1")
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect"},
		Target: tc, Attempts: 1, Concurrency: 1, OutDir: t.TempDir()})
	checkCrash(t, "Run", err)
	if rec != nil {
		t.Errorf("Run wrote a record of %d attempts with a crashed preflight", len(rec.Attempts))
	}
	_, err = Validate(context.Background(), s, tc)
	checkCrash(t, "Validate", err)
	// A server that answers with other figures is still a drift.
	_, err = Run(context.Background(), Config{Suite: loadSuite(t, strings.Replace(crashPreflightSuite, "total: 42}", "total: 43}", 1)),
		Model: m, ModelInfo: model.Info{Spec: "fake:perfect"}, Target: faultserver.Target(), Attempts: 1, Concurrency: 1, OutDir: t.TempDir()})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("a drift: Run = %v, want ErrInvalid", err)
	}
}

func checkCrash(t *testing.T, what string, err error) {
	t.Helper()
	var se *target.StderrError
	switch {
	case err == nil:
		t.Errorf("%s succeeded with a server that crashed in the preflight", what)
	case errors.Is(err, ErrInvalid):
		t.Errorf("%s = %v: a crash reported as data drift", what, err)
	case !errors.As(err, &se) || !stderrHas(se.Stderr, "crashing on tool call 1"):
		t.Errorf("%s = %v: want the server's stderr", what, err)
	case !strings.Contains(err.Error(), "not a drift"):
		t.Errorf("%s = %v: want it to say this is not a drift", what, err)
	}
}
