package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
)

// TestRealModelNeedsASuite: a real model with no --suite is refused
// before anything is sent, rather than measured on the demo suite.
func TestRealModelNeedsASuite(t *testing.T) {
	var calls atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer api.Close()
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-never-used")
	t.Setenv("ANTHROPIC_BASE_URL", api.URL)
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"run", "--quiet", "--spend", "--model", "anthropic:claude-sonnet-4-5"}, nil, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "no --suite was given") {
		t.Errorf("exit %d, stderr %q; want exit %d naming the missing --suite", code, errb.String(), exitUsage)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d requests reached the model API", n)
	}
	if _, err := os.Stat("runs"); err == nil {
		t.Error("a run directory was made")
	}
}

// TestRunExportsAsItGoes: run --otlp sends one attempt span per attempt
// to the collector while the run goes, and a dead collector changes
// nothing in the run but a warning.
func TestRunExportsAsItGoes(t *testing.T) {
	rcv := otlptest.NewReceiver(t)
	dir := t.TempDir()
	run := func(out, endpoint string) (string, []byte) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), []string{"run", "--quiet", "--json", "--case", "single-tool/", "--attempts", "2",
			"--out", filepath.Join(dir, out), "--otlp", endpoint}, nil, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("run --otlp %s: exit %d\n%s", endpoint, code, stderr.String())
		}
		grades, err := os.ReadFile(filepath.Join(dir, out, rundir.Grades))
		if err != nil {
			t.Fatal(err)
		}
		return stderr.String(), grades
	}
	_, live := run("live", rcv.Endpoint())
	var res struct {
		Attempts []struct {
			Case    string `json:"case"`
			Verdict string `json:"verdict"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal(live, &res); err != nil {
		t.Fatal(err)
	}
	roots := 0
	for _, s := range rcv.Spans() {
		if s.ParentHex() == "" {
			roots++
		}
	}
	if roots != len(res.Attempts) || roots == 0 {
		t.Errorf("%d attempt spans received for %d attempts", roots, len(res.Attempts))
	}

	// A collector that refuses everything: the same grades, and a warning.
	dead := otlptest.NewReceiver(t)
	dead.Status = http.StatusServiceUnavailable
	stderr, deadGrades := run("dead", dead.Endpoint())
	if !strings.Contains(stderr, "OpenTelemetry") {
		t.Errorf("no warning about the spans not sent:\n%s", stderr)
	}
	strip := func(b []byte) string { // the run ids differ
		var v map[string]any
		json.Unmarshal(b, &v)
		delete(v, "run_id")
		out, _ := json.Marshal(v)
		return string(out)
	}
	if strip(live) != strip(deadGrades) {
		t.Errorf("a dead collector changed the grades")
	}

	// A collector killed while the run goes: it took some spans, then
	// stopped answering. The run finishes with the same grades.
	dying := otlptest.NewReceiver(t)
	go func() {
		for dying.Requests() == 0 {
			time.Sleep(time.Millisecond)
		}
		dying.CloseClientConnections()
		dying.Close()
	}()
	_, killedGrades := run("killed", dying.Endpoint())
	if strip(live) != strip(killedGrades) {
		t.Errorf("a collector killed mid-run changed the grades")
	}
	if dying.Requests() == 0 {
		t.Errorf("the collector received nothing before it was killed")
	}
}
