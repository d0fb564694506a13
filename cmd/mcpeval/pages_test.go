package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// plantedRun makes a run of the household suite with the fake model that
// answers as the key does, then rewrites the first call of its first
// attempt in record.jsonl with plant, as a hostile server's result or an
// edited record would hold it. It returns the run's directory (in a
// directory of runs, for view) and the case of the attempt planted.
func plantedRun(t *testing.T, plant func(*record.Call)) (dir, caseID string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "runs", "r")
	if _, stderr, code := cli("run", "--model", "fake:perfect", "--attempts", "1", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	path := filepath.Join(dir, "record.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(b, []byte("\n"))
	var line struct {
		Attempt record.Attempt `json:"attempt"`
	}
	if err := json.Unmarshal(lines[1], &line); err != nil || len(line.Attempt.Turns) == 0 || len(line.Attempt.Turns[0].Calls) == 0 {
		t.Fatalf("the record's first attempt has no call to plant in (%v): %s", err, lines[1])
	}
	plant(&line.Attempt.Turns[0].Calls[0])
	if lines[1], err = json.Marshal(&line); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, line.Attempt.Case
}

// viewPage serves the runs beside run with mcpeval view and returns the
// page at path (relative to the server's root).
func viewPage(t *testing.T, run, path string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Main(ctx, []string{"view", "--addr", "127.0.0.1:0", filepath.Dir(run)}, nil, pw, &stderr)
		pw.Close()
	}()
	defer func() { cancel(); <-done }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("mcpeval view: reading its address: %v: %s", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(line, "mcpeval view: "))[0], "/")
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v\n%.2000s", path, resp.StatusCode, err, body)
	}
	return string(body)
}

// attemptPath is the viewer's address of attempt #1 of caseID in run.
func attemptPath(t *testing.T, run, caseID string) string {
	t.Helper()
	h, err := record.ReadHeader(run)
	if err != nil {
		t.Fatal(err)
	}
	return "/attempt?" + url.Values{"run": {h.RunID}, "case": {caseID}, "n": {"1"}}.Encode()
}

// TestHostileResultPagesBounded: a 20 KB tool result nested 10,000 deep
// in a record makes report --html, the viewer's attempt page and
// publish --dry-run's run page grow by a bounded multiple of its size,
// with bounded allocation, where indenting it whole wrote 200 MB an
// attempt.
func TestHostileResultPagesBounded(t *testing.T) {
	hostile := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	plain, _ := plantedRun(t, func(c *record.Call) {})
	run, caseID := plantedRun(t, func(c *record.Call) { c.Result = hostile })
	bound := int64(4*len(hostile) + 64<<10)
	size := func(p string) int64 {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	allocated := func(what string, f func()) {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
			t.Errorf("%s allocated %d MiB, want under 256", what, alloc>>20)
		}
	}

	allocated("report --html", func() {
		for _, r := range []string{plain, run} {
			if _, stderr, code := cli("report", r, "--html", filepath.Join(r, "page.html")); code != 0 {
				t.Fatalf("report --html: exit %d: %s", code, stderr)
			}
		}
	})
	if grew := size(filepath.Join(run, "page.html")) - size(filepath.Join(plain, "page.html")); grew > bound {
		t.Errorf("report --html: the page grew by %d bytes for a %d-byte result, want at most %d", grew, len(hostile), bound)
	}

	allocated("publish --dry-run", func() {
		for _, r := range []string{plain, run} {
			if _, stderr, code := cli("publish", r, "--dry-run", "--ledger", filepath.Join(r, "results.json"), "--site", filepath.Join(r, "site")); code != 0 {
				t.Fatalf("publish --dry-run: exit %d: %s", code, stderr)
			}
		}
	})
	page := func(r string) int64 {
		pages, _ := filepath.Glob(filepath.Join(r, "site", "runs", "*.html"))
		if len(pages) != 1 {
			t.Fatalf("publish --dry-run wrote run pages %v, want one", pages)
		}
		return size(pages[0])
	}
	if grew := page(run) - page(plain); grew > bound {
		t.Errorf("publish --dry-run: the run page grew by %d bytes for a %d-byte result, want at most %d", grew, len(hostile), bound)
	}

	allocated("view", func() {
		if body := viewPage(t, run, attemptPath(t, run, caseID)); int64(len(body)) > bound+256<<10 {
			t.Errorf("view: the attempt page is %d bytes for a %d-byte result, want at most %d", len(body), len(hostile), bound+256<<10)
		}
	})
}

// invisible are characters that act on the text around them rather than
// show: a bidi override (which reverses what follows), a pop, an isolate,
// ESC starting a CSI, and BEL ending an OSC.
const invisible = "evil\u202etxt.exe\u202c \u2066x\u2069 \x1b[2J\x1b]52;c;SGVsbG8=\x07 done"

// checkVisible fails when page holds one of invisible's controls raw, or
// does not show them as escapes.
func checkVisible(t *testing.T, where, page string) {
	t.Helper()
	if i := strings.IndexAny(page, "\u202e\u202c\u2066\u2069\x1b\x07"); i >= 0 {
		t.Errorf("%s holds a control character raw: %q", where, page[max(0, i-40):min(len(page), i+40)])
	}
	for _, want := range []string{`evil\u202etxt.exe\u202c`, `\u2066x\u2069`, `\x1b[2J\x1b]52;c;SGVsbG8=\x07`} {
		if !strings.Contains(page, want) {
			t.Errorf("%s does not show %s", where, want)
		}
	}
}

// TestPagesShowControlsVisibly: bidi overrides, ESC and BEL in a tool
// result and an answer reach no HTML page raw (report --html, the
// viewer's attempt page, publish --dry-run's run page): each is shown as
// an escape a reader can see.
func TestPagesShowControlsVisibly(t *testing.T) {
	run, caseID := plantedRun(t, func(c *record.Call) { c.Result = invisible })
	if _, stderr, code := cli("report", run, "--html", filepath.Join(run, "page.html")); code != 0 {
		t.Fatalf("report --html: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(run, "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	checkVisible(t, "report --html", string(b))

	checkVisible(t, "view", viewPage(t, run, attemptPath(t, run, caseID)))

	if _, stderr, code := cli("publish", run, "--dry-run", "--ledger", filepath.Join(run, "results.json"), "--site", filepath.Join(run, "site")); code != 0 {
		t.Fatalf("publish --dry-run: exit %d: %s", code, stderr)
	}
	pages, _ := filepath.Glob(filepath.Join(run, "site", "runs", "*.html"))
	if len(pages) != 1 {
		t.Fatalf("publish --dry-run wrote run pages %v, want one", pages)
	}
	if b, err = os.ReadFile(pages[0]); err != nil {
		t.Fatal(err)
	}
	checkVisible(t, "publish --dry-run", string(b))
}
