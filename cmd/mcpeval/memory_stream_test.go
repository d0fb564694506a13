package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

// The commands that read a run to send it (export), to walk its failures
// (review) or to measure the judge against people (judge-agreement) read
// its record as a stream too: their peak memory is measured here as the
// others' is in memory_test.go.

// reviewedRecords makes household records of 190 and 19,000 attempts, one
// attempt in seven failing (replayBroken of householdRecords' run),
// scored with the fake judge's opinions, and with a person's reviews of
// the failures of decline cases, which the judge read too. They are made
// in a temporary directory, or in $MCPEVAL_MEMORY_RECORDS/reviewed to
// keep them, where records found complete are used again.
func reviewedRecords(t *testing.T) (small, big string) {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("MCPEVAL_MEMORY_RECORDS"); keep != "" {
		dir = filepath.Join(keep, "reviewed")
		small, big = filepath.Join(dir, "small"), filepath.Join(dir, "big")
		if complete(small) && complete(big) && hasReviews(small) && hasReviews(big) {
			return small, big
		}
		os.RemoveAll(dir)
	}
	base, _ := householdRecords(t, filepath.Join(dir, "base"), 1)
	rec, err := record.Read(base)
	if err != nil {
		t.Fatal(err)
	}
	small, big = filepath.Join(dir, "small"), filepath.Join(dir, "big")
	if err := replayBroken(rec, small, 1, 7); err != nil {
		t.Fatal(err)
	}
	if err := replayBroken(rec, big, 100, 7); err != nil {
		t.Fatal(err)
	}
	// The big run is scored and reviewed by the CLI in processes of their
	// own (peakRSS), so that this one stays small (see measured).
	for _, d := range []string{small, big} {
		peakRSS(t, "score", d, "--judge", "fake:phrases")
	}
	// The failures of copy 0 of the big run are the small run's.
	graded, err := rundir.ReadGrades(small)
	if err != nil {
		t.Fatal(err)
	}
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	verdicts := []string{"g", "m", "e"}
	n := 0
	for _, g := range graded.Attempts {
		if c := s.Case(g.Case); g.Outcome != grade.Fail || c == nil || !c.Decline {
			continue
		}
		for _, d := range []string{small, big} {
			peakRSS(t, "review", d, "--case", g.Case, "--attempt", strconv.Itoa(g.N), "--verdict", verdicts[n%len(verdicts)], "--note", "read it", "--reviewer", "ana")
		}
		n++
	}
	if n < 2 {
		t.Fatalf("%d failures of decline cases to review in %s, want 2 or more", n, small)
	}
	return small, big
}

// discard is an OTLP/HTTP collector, and a Langfuse stand-in, that takes
// everything and keeps nothing, so that this process stays small.
func discard(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/v1/traces", "/api/public/otel/v1/traces":
			w.Header().Set("Content-Type", "application/x-protobuf")
		case "/api/public/projects":
			io.WriteString(w, `{"data":[{"id":"p","name":"evals"}]}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestMemoryFlatStreaming: exporting, reviewing and measuring the judge
// over a run of 19,000 attempts takes under 100 MiB at its peak, and
// within half again what a run of 190 takes.
func TestMemoryFlatStreaming(t *testing.T) {
	skipPeakMemory(t, "generates a 19,000-attempt record")
	small, big := reviewedRecords(t)
	srv := discard(t)
	t.Setenv("LANGFUSE_HOST", srv.URL)
	t.Setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-memory")
	t.Setenv("LANGFUSE_SECRET_KEY", "sk-lf-memory")
	// The exports measure memory, not speed: --timeout bounds the whole
	// export, which on a loaded machine may take more than its default.
	for _, cmd := range [][]string{
		{"export", "--otlp", srv.URL, "--timeout", "10m"},
		{"export", "--otlp", srv.URL, "--content", "--timeout", "10m"},
		{"export", "--langfuse", "--content", "--timeout", "10m"},
		{"review"},
		{"review", "--list"},
		{"review", "--list", "--json"},
		{"judge-agreement"},
	} {
		s := peakRSS(t, append([]string{cmd[0], small}, cmd[1:]...)...)
		b := peakRSS(t, append([]string{cmd[0], big}, cmd[1:]...)...)
		t.Logf("mcpeval %v: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000", cmd, s, b)
		if b >= 100 || s >= 100 {
			t.Errorf("mcpeval %v: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000: want both under 100 MiB", cmd, s, b)
		}
		if b > 1.5*s {
			t.Errorf("mcpeval %v: peak RSS %.1f MiB at 19,000 attempts, more than half again the %.1f MiB at 190", cmd, b, s)
		}
	}
}
