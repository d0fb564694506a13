package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/ingest"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

// spanFile is an OTLP/HTTP receiver that writes each request's body to a
// file as the collector's file exporter does with format: proto (its
// length in 4 big-endian bytes, then the request).
func spanFile(t *testing.T) (url, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "spans.binpb")
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		f.Write(binary.BigEndian.AppendUint32(nil, uint32(len(body))))
		f.Write(body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, path
}

func mustMain(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(context.Background(), args, nil, &out, &errb); code != 0 {
		t.Fatalf("mcpeval %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String()
}

// gradesOf grades the run in dir with mcpeval score and returns its
// attempts' grades by "case#n".
func gradesOf(t *testing.T, dir string) (map[string]grade.AttemptGrade, *grade.Result) {
	t.Helper()
	mustMain(t, "score", dir, "--json")
	res, err := rundir.ReadGrades(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]grade.AttemptGrade{}
	for _, g := range res.Attempts {
		m[record.AttemptKey{Case: g.Case, N: g.N}.ID()] = g
	}
	return m, res
}

// TestImportOTLPRoundTrip exports a household run with its content, reads
// the spans back with mcpeval import, and grades both: every attempt of a
// case that needs no fixtures gets the same verdict and reasons, and the
// action cases are said not to be graded.
func TestImportOTLPRoundTrip(t *testing.T) {
	s, err := loadSuite("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ model, match string }{
		{"fake:perfect", "attribute"}, {"fake:perfect", "prompt"},
		{"fake:invent", "attribute"},
	} {
		t.Run(tc.model+"/"+tc.match, func(t *testing.T) {
			match := tc.match
			dir := filepath.Join(t.TempDir(), "run")
			mustMain(t, "run", "--model", tc.model, "--out", dir, "--quiet")
			url, spans := spanFile(t)
			mustMain(t, "export", dir, "--otlp", url, "--content")
			want, _ := gradesOf(t, dir)
			failed := 0
			for _, g := range want {
				if g.Outcome == grade.Fail {
					failed++
				}
			}
			if tc.model != "fake:perfect" && failed == 0 {
				t.Fatalf("%s failed nothing: the comparison would prove little", tc.model)
			}
			imp := filepath.Join(t.TempDir(), "imported")
			out := mustMain(t, "import", "--otlp", spans, "--match", match, "--out", imp)
			h, err := record.ReadHeader(imp)
			if err != nil {
				t.Fatal(err)
			}
			if h.Source != record.SourceImported {
				t.Errorf("header source %q, want %q", h.Source, record.SourceImported)
			}
			got, res := gradesOf(t, imp)
			compared := compareImported(t, s, want, got, match, out)
			actionCases := 0
			for _, w := range want {
				if s.Case(w.Case).Action != nil {
					actionCases++
				}
			}
			if actionCases > 0 && !strings.Contains(strings.Join(res.Warnings, "\n"), grade.NotGradedImported) {
				t.Errorf("warnings do not say the action cases were not graded: %q", res.Warnings)
			}
			t.Logf("%s %s: %d attempts graded alike (%d failing), %d of action cases not graded\n%s", tc.model, match, compared, failed, actionCases, out)
		})
	}
}

// TestImportUnmatchedListed imports spans matched by an attribute that
// names no case: every conversation is listed as unmatched, on the output
// and in the run's unmatched file.
func TestImportUnmatchedListed(t *testing.T) {
	dir := recordedRun(t)
	url, spans := spanFile(t)
	mustMain(t, "export", dir, "--otlp", url, "--content")
	imp := filepath.Join(t.TempDir(), "imported")
	out := mustMain(t, "import", "--otlp", spans, "--match", "attribute=no.such.key", "--out", imp)
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "unmatched trace "); n != len(rec.Attempts) {
		t.Errorf("%d unmatched listed, want every one of %d\n%s", n, len(rec.Attempts), out)
	}
	b, err := os.ReadFile(filepath.Join(imp, ingest.UnmatchedFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != len(rec.Attempts) {
		t.Errorf("%s holds %d lines, want %d", ingest.UnmatchedFile, n, len(rec.Attempts))
	}
}

// TestImportJSONL imports a run's own record as JSONL: each attempt keeps
// its case and grades as it did.
func TestImportJSONL(t *testing.T) {
	dir := recordedRun(t)
	want, _ := gradesOf(t, dir)
	imp := filepath.Join(t.TempDir(), "imported")
	mustMain(t, "import", "--jsonl", filepath.Join(dir, record.FileName), "--match", "attribute", "--out", imp)
	got, _ := gradesOf(t, imp)
	orig, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := record.ReadHeader(imp)
	if err != nil {
		t.Fatal(err)
	}
	first := orig.Attempts[0].Start
	for _, a := range orig.Attempts {
		if a.Start.Before(first) {
			first = a.Start
		}
	}
	if !h.Start.Equal(first) {
		t.Errorf("imported run starts %s, want its first conversation's start %s", h.Start, first)
	}
	if out := mustMain(t, "report", imp, "--json"); !strings.Contains(out, `"source": "imported"`) {
		t.Errorf("report --json of an imported run does not say source imported:\n%s", out)
	}
	if out := mustMain(t, "report", dir, "--json"); strings.Contains(out, `"source": "imported"`) {
		t.Errorf("report --json of a run made by mcpeval says source imported")
	}
	s, _ := loadSuite("")
	for k, w := range want {
		if s.Case(w.Case).Action != nil {
			continue
		}
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(got[k])
		if string(wj) != string(gj) {
			t.Errorf("%s: graded\n%s\nimported, want\n%s", k, gj, wj)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe to write and read at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestImportListen receives a run's export over OTLP/HTTP with import
// --listen until interrupted: every attempt arrives and is matched.
func TestImportListen(t *testing.T) {
	dir := recordedRun(t)
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	imp := filepath.Join(t.TempDir(), "imported")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	var errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"import", "--listen", "127.0.0.1:0", "--match", "attribute", "--out", imp}, nil, &out, &errb)
	}()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, after, ok := strings.Cut(errb.String(), "receiving OTLP/HTTP at "); ok {
			url, _, _ = strings.Cut(after, "\n")
		}
	}
	if url == "" {
		t.Fatalf("import --listen said no address: %s", errb.String())
	}
	mustMain(t, "export", dir, "--otlp", url, "--content")
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("import --listen: exit %d\n%s", code, errb.String())
	}
	want := fmt.Sprintf("imported %d conversations: %d matched", len(rec.Attempts), len(rec.Attempts))
	if !strings.Contains(out.String(), want) {
		t.Errorf("import --listen printed\n%s\nwant %q", out.String(), want)
	}
}
