package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
	"github.com/mcpeval/mcpeval/record"
)

// recordedRun makes a run of the household suite with fake:perfect and
// returns its directory.
func recordedRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--out", dir, "--quiet"}, nil, &out, &errb); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	return dir
}

// TestExportOTLP exports a recorded run to an OTLP/HTTP receiver decoding
// the official protobufs and checks it against the record and its grades:
// a trace per attempt with the attempt's verdict, start and end, a chat
// span per turn with its tokens, an execute_tool span per call.
func TestExportOTLP(t *testing.T) {
	dir := recordedRun(t)
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	graded, err := rundir.ReadGrades(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := otlptest.NewReceiver(t)
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"export", dir, "--otlp", r.URL}, nil, &out, &errb); code != 0 {
		t.Fatalf("export: exit %d\n%s", code, errb.String())
	}
	verdicts := map[string]string{}
	for _, g := range graded.Attempts {
		verdicts[otlp.TraceID(rec.Header.RunID, g.Case, g.N).String()] = string(g.Outcome)
	}
	type trace struct {
		root         *otlptest.Span
		chats, tools int
		input        int64
	}
	traces := map[string]*trace{}
	spans := r.Spans()
	for i := range spans {
		s := &spans[i]
		tr := traces[s.TraceHex()]
		if tr == nil {
			tr = &trace{}
			traces[s.TraceHex()] = tr
		}
		switch {
		case s.ParentHex() == "":
			tr.root = s
		case strings.HasPrefix(s.Name, "chat "):
			tr.chats++
			tr.input += s.Attr("gen_ai.usage.input_tokens").(int64)
		case strings.HasPrefix(s.Name, "execute_tool "):
			tr.tools++
		}
	}
	if len(traces) != len(rec.Attempts) {
		t.Fatalf("%d traces for %d attempts", len(traces), len(rec.Attempts))
	}
	if want := "sent " + strconv.Itoa(len(spans)) + " spans (" + strconv.Itoa(len(rec.Attempts)) + " attempts)"; !strings.Contains(out.String(), want) {
		t.Errorf("export said %q, want %q", out.String(), want)
	}
	for _, a := range rec.Attempts {
		id := otlp.TraceID(rec.Header.RunID, a.Case, a.N).String()
		tr := traces[id]
		if tr == nil || tr.root == nil {
			t.Errorf("%s #%d: no trace %s", a.Case, a.N, id)
			continue
		}
		if got := tr.root.Attr("mcpeval.verdict"); got != verdicts[id] || got == nil {
			t.Errorf("%s #%d: verdict %v, want %s", a.Case, a.N, got, verdicts[id])
		}
		if tr.root.StartTimeUnixNano != uint64(a.Start.UnixNano()) || tr.root.EndTimeUnixNano < uint64(a.Start.UnixNano()+a.DurationMS*1e6) {
			t.Errorf("%s #%d: span from %d to %d, want the record's start %d and duration %dms", a.Case, a.N, tr.root.StartTimeUnixNano, tr.root.EndTimeUnixNano, a.Start.UnixNano(), a.DurationMS)
		}
		if tr.chats != len(a.Turns) || tr.tools != len(a.Calls()) || tr.input != a.Usage().Input {
			t.Errorf("%s #%d: %d chat spans, %d tool spans, %d input tokens; want %d, %d, %d", a.Case, a.N, tr.chats, tr.tools, tr.input, len(a.Turns), len(a.Calls()), a.Usage().Input)
		}
		if g := tr.root.Attr("mcpeval.case.group"); g != strings.Split(a.Case, "/")[0] {
			t.Errorf("%s #%d: group %v", a.Case, a.N, g)
		}
	}
}

// TestExportLangfuse sends a recorded run to a Langfuse stand-in with the
// keys from the environment: traces to its OTLP endpoint, then datasets,
// items, the dataset run and scores, each with the keys as basic auth.
func TestExportLangfuse(t *testing.T) {
	dir := recordedRun(t)
	const secret = "sk-lf-cli-secret-0123456789"
	otel := &otlptest.Receiver{Path: "/api/public/otel/v1/traces"}
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "pk-lf-cli" || p != secret {
			http.Error(w, `{"message":"Invalid credentials"}`, http.StatusUnauthorized)
			return
		}
		mu.Lock()
		calls[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case otel.Path:
			otel.ServeHTTP(w, r)
		case "/api/public/projects":
			io.WriteString(w, `{"data":[{"id":"p","name":"evals"}]}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	defer srv.Close()
	t.Setenv("LANGFUSE_HOST", srv.URL)
	t.Setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-cli")
	t.Setenv("LANGFUSE_SECRET_KEY", secret)
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"export", dir, "--langfuse", "--content"}, nil, &out, &errb); code != 0 {
		t.Fatalf("export: exit %d\n%s", code, errb.String())
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rec.Attempts)
	for call, want := range map[string]int{
		"POST /api/public/v2/datasets":       1,
		"POST /api/public/dataset-items":     20,
		"POST /api/public/dataset-run-items": n,
	} {
		if calls[call] != want {
			t.Errorf("%s called %d times, want %d", call, calls[call], want)
		}
	}
	if calls["POST /api/public/scores"] < 2*n {
		t.Errorf("%d scores for %d attempts, want at least a verdict and a pass each", calls["POST /api/public/scores"], n)
	}
	if len(otel.Spans()) == 0 {
		t.Error("no traces reached Langfuse's OTLP endpoint")
	}
	if !strings.Contains(out.String(), "dataset run household / "+rec.Header.RunID) {
		t.Errorf("output %q does not name the dataset run", out.String())
	}
	if strings.Contains(out.String()+errb.String(), secret) {
		t.Error("the secret key was shown")
	}
}
