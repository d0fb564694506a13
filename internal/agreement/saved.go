package agreement

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/mcpeval/mcpeval/internal/rundir"
)

// Saved is a measured agreement as a run directory keeps it
// (RUN/agreement.json, written by "mcpeval judge-agreement RUN... --save"):
// the agreement, the runs it was measured over and the day it was.
type Saved struct {
	*Agreement
	// Runs are the ids of the runs whose reviews it was measured over.
	Runs []string `json:"runs"`
	// Measured is the day it was measured, UTC (2006-01-02).
	Measured string `json:"measured"`
}

// Save writes the agreement into run directory dir.
func Save(dir string, s *Saved) error {
	if err := rundir.WriteJSON(rundir.Path(dir, rundir.Agreement), s); err != nil {
		return fmt.Errorf("saving the judge's agreement: %w", err)
	}
	return nil
}

// Read loads the agreement saved in run directory dir; nil, with no
// error, when none was saved.
func Read(dir string) (*Saved, error) {
	p := rundir.Path(dir, rundir.Agreement)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the judge's agreement: %w", err)
	}
	s := &Saved{Agreement: &Agreement{}}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return s, nil
}

// Measures reports whether s measured judge model judge: it names it, and
// its kappa is defined. A nil s measures nothing.
func (s *Saved) Measures(judge string) bool {
	return s != nil && s.Agreement != nil && s.Kappa != nil && slices.Contains(s.Judges, judge)
}

// For says a judge model's measured agreement, for a report's judged
// block: "kappa 0.40, 95% CI [0.15, 0.65] (n=50, measured 2026-11-30)",
// or "agreement not measured" when s does not measure it.
func (s *Saved) For(judge string) string {
	if !s.Measures(judge) {
		return NotMeasured
	}
	return "kappa " + KappaText(s.Agreement) + ", measured " + s.Measured
}

// NotMeasured is what a report says of a judge whose agreement with
// people has not been measured.
const NotMeasured = "agreement not measured"
