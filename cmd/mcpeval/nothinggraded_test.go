package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/record"
)

// TestNothingGradedNamesTheSurface: in a run of models × surfaces, the
// exit-6 message for a cell whose every attempt ended in an error names
// the model and the surface, as the gate's verdict does.
func TestNothingGradedNamesTheSurface(t *testing.T) {
	cell := func(sf string, errs int) *pipeline.Graded {
		res := &grade.Result{Model: "openai:gpt-test", Valid: true}
		res.Totals.Errors, res.Totals.ErrorKinds = errs, map[string]int{"provider": errs}
		rec := &record.Run{}
		if sf != "" {
			rec.Header.Surface = &record.Surface{Name: sf}
		}
		return &pipeline.Graded{Record: rec, Result: res}
	}
	err := nothingGraded([]*pipeline.Graded{cell("meta", 0), cell("search", 4), cell("", 3)})
	var ex *exitError
	if !errors.As(err, &ex) || ex.code != exitTooFew {
		t.Fatalf("got %v: want exit %d", err, exitTooFew)
	}
	for _, want := range []string{
		"openai:gpt-test on surface search: no attempt was graded: all 4 ended in an error (provider 4)",
		"\nopenai:gpt-test: no attempt was graded: all 3 ended in an error (provider 3)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "meta") {
		t.Errorf("message %q names the surface whose attempts were graded", err)
	}
}
