// Package recordtest makes records for tests: it writes a run built in a
// test to its directory as the runner would, and records a real run of the
// household suite, for tests of what reads records (exporters, reviews).
package recordtest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// Open writes rec to rec.Dir (its header, its attempts in order, and an
// end that says the run is complete) and opens it as a stream, closed when
// the test ends.
func Open(t testing.TB, rec *record.Run) *record.Reader {
	t.Helper()
	w, err := record.Create(rec.Dir, &rec.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Attempts {
		if err := w.Attempt(&rec.Attempts[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(&record.End{Complete: true}); err != nil {
		t.Fatal(err)
	}
	rd, err := record.Open(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	return rd
}

// Household runs the embedded household suite once, over its in-process
// server, with the fake model that answers every case as its key does, and
// returns the suite and the record read back from disk.
func Household(t testing.TB) (*suite.Suite, *record.Run) {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Builtins: builtin.All()}, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Attempts:  1, OutDir: dir, CallTimeout: 30 * time.Second,
	}); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, rec
}
