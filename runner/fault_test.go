package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain lets this test binary serve as the fault server of Target.
func TestMain(m *testing.M) {
	faultserver.RunIfChild()
	os.Exit(m.Run())
}

const faultSuite = `name: faults
system_prompt: Use the tools.
cases:
  - id: f/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    key:
      calls: [{tool: get_total}]
      answer: The total is 42.
`

// runFaults runs case f/total attempts times, one at a time, against tc
// with fake:perfect, counting the model's turns.
func runFaults(t *testing.T, tc target.Config, attempts int, cfg Config) (*record.Run, *countingModel, error) {
	t.Helper()
	s := loadSuite(t, faultSuite)
	m, _ := fake.New("perfect", s)
	counting := &countingModel{m: m}
	cfg.Suite, cfg.Model, cfg.Target = s, counting, tc
	cfg.ModelInfo = model.Info{Spec: "fake:perfect"}
	cfg.Attempts, cfg.Concurrency = attempts, 1
	if cfg.OutDir == "" {
		cfg.OutDir = t.TempDir()
	}
	rec, err := Run(context.Background(), cfg)
	return rec, counting, err
}

// byN returns a run's attempts by number, checking that none is a fail in
// the making: every attempt either answered 42 or is an error.
func byN(t *testing.T, rec *record.Run) map[int]record.Attempt {
	t.Helper()
	out := map[int]record.Attempt{}
	for _, a := range rec.Attempts {
		out[a.N] = a
		switch {
		case a.End == record.EndError && a.Error != nil:
		case a.End == record.EndAnswered && a.Answer == "The total is 42.":
		default:
			t.Errorf("attempt %d ended %s with answer %q: an injected fault must end as an error", a.N, a.End, a.Answer)
		}
	}
	return out
}

func wantAnswered(t *testing.T, as map[int]record.Attempt, ns ...int) {
	t.Helper()
	for _, n := range ns {
		if a, ok := as[n]; !ok || a.End != record.EndAnswered {
			t.Errorf("attempt %d: %+v, want answered", n, a)
		}
	}
}

func wantError(t *testing.T, a record.Attempt, kind record.ErrorKind, msg string) {
	t.Helper()
	if a.End != record.EndError || a.Error == nil || a.Error.Kind != kind || !strings.Contains(a.Error.Message, msg) {
		t.Errorf("attempt %d ended %s with error %+v, want a %s error saying %q", a.N, a.End, a.Error, kind, msg)
	}
}

func stderrHas(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// TestStdioFaultsAreErrors: a stdio server that fails on the second tool
// call makes that attempt an error holding its last stderr lines, and is
// replaced for the next attempts: one that crashes, one that hangs past the
// call timeout (a timeout), one that writes non-JSON on stdout (which
// breaks the session).
func TestStdioFaultsAreErrors(t *testing.T) {
	for _, tc := range []struct {
		fault  string // the fault server's flag
		cfg    Config
		kind   record.ErrorKind
		msg    string
		stderr []string // what the error's stderr lines hold
	}{
		{"-crash-on", Config{}, record.KindTarget, "calling tool get_total", []string{"crashing on tool call 2", "panic: runtime error"}},
		{"-hang-on", Config{CallTimeout: 300 * time.Millisecond}, record.KindTimeout, "did not answer within 300ms", []string{"hanging on tool call 2"}},
		{"-garbage-on", Config{}, record.KindTarget, "calling tool get_total", []string{"writing garbage for tool call 2"}},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			rec, _, err := runFaults(t, faultserver.Target(tc.fault, "2"), 3, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Complete() || len(rec.Attempts) != 3 {
				t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
			}
			as := byN(t, rec)
			wantAnswered(t, as, 1, 3)
			a := as[2]
			wantError(t, a, tc.kind, tc.msg)
			for _, want := range tc.stderr {
				if a.Error == nil || !stderrHas(a.Error.Stderr, want) {
					t.Errorf("attempt 2's error %+v, want the server's last stderr lines, %q among them", a.Error, want)
				}
			}
		})
	}
}

// TestTargetThatCannotStart: a target that cannot start is reported, with
// its stderr, before any model request, and no record is made.
func TestTargetThatCannotStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  target.Config
		want string
	}{
		{"exits at once", faultserver.Target("-fail-start"), "the database is locked"},
		{"no such command", target.Config{Spec: "stdio:" + filepath.Join(t.TempDir(), "no-such-server")}, "no-such-server"},
		{"refuses connections", target.Config{Spec: refusingURL(t)}, "connecting to target"},
		{"answers 500", target.Config{Spec: statusServer(t, http.StatusInternalServerError)}, "connecting to target"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			_, counting, err := runFaults(t, tc.cfg, 1, Config{OutDir: dir})
			if err == nil || !strings.Contains(err.Error(), "before any model request") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one before any model request saying %q", err, tc.want)
			}
			if counting.n != 0 {
				t.Errorf("the model was asked %d times", counting.n)
			}
			if _, err := os.Stat(filepath.Join(dir, record.FileName)); err == nil {
				t.Error("a record was made for a run that never started")
			}
		})
	}
}

// refusingURL returns a loopback URL on which nothing listens.
func refusingURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/mcp"
}

func statusServer(t *testing.T, code int) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", code)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// faultyHTTP serves the fault server's own tools over streamable HTTP and
// lets fail decide, for each tool call (counted from 1), whether to answer
// it with a fault instead.
func faultyHTTP(t *testing.T, fail func(n int, w http.ResponseWriter, body []byte) bool) *httptest.Server {
	srv, err := faultserver.NewServer(faultserver.Options{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var calls atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"tools/call"`)) {
			if fail(int(calls.Add(1)), w, body) {
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestHTTPServerErrorsAreErrors: a tool call answered with a 5xx (plain,
// transient, or with a JSON-RPC internal error) is an attempt error, never
// something the model is shown, and the run goes on.
func TestHTTPServerErrorsAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		code int
		body func(id json.RawMessage) string
	}{
		{"500", 500, func(json.RawMessage) string { return "internal server error" }},
		{"503", 503, func(json.RawMessage) string { return "try later" }},
		{"500 with a JSON-RPC error", 500, func(id json.RawMessage) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"database down"}}`, id)
		}},
		{"200 with a JSON-RPC internal error", 200, func(id json.RawMessage) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"database down"}}`, id)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := faultyHTTP(t, func(n int, w http.ResponseWriter, body []byte) bool {
				if n != 2 {
					return false
				}
				var req struct{ ID json.RawMessage }
				json.Unmarshal(body, &req)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body(req.ID))
				return true
			})
			rec, _, err := runFaults(t, target.Config{Spec: ts.URL}, 3, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Complete() || len(rec.Attempts) != 3 {
				t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
			}
			as := byN(t, rec)
			wantError(t, as[2], record.KindTarget, "calling tool get_total")
			wantAnswered(t, as, 1, 3)
			a2 := as[2]
			for _, c := range a2.Calls() {
				if c.Rejected != "" {
					t.Errorf("the server's failure was shown to the model as a rejection: %q", c.Rejected)
				}
			}
		})
	}
}

// TestHTTPRefusedMidRun: a target that goes away mid-run (its connection
// dropped, then every connection refused) makes each later attempt an
// error, and the run still ends, complete.
func TestHTTPRefusedMidRun(t *testing.T) {
	srv, err := faultserver.NewServer(faultserver.Options{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var calls atomic.Int64
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"tools/call"`)) && calls.Add(1) == 2 {
			once.Do(func() { ln.Close() }) // from now on, connections are refused
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close() // and this one is dropped unanswered
			}
			return
		}
		h.ServeHTTP(w, r)
	})}
	hs.SetKeepAlivesEnabled(false)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	rec, _, err := runFaults(t, target.Config{Spec: "http://" + ln.Addr().String()}, 4, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != 4 {
		t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
	}
	as := byN(t, rec)
	wantAnswered(t, as, 1)
	wantError(t, as[2], record.KindTarget, "calling tool get_total")
	for _, n := range []int{3, 4} {
		wantError(t, as[n], record.KindTarget, "could not be started")
		if !strings.Contains(as[n].Error.Message, "connection refused") {
			t.Errorf("attempt %d: %q does not say the connection was refused", n, as[n].Error.Message)
		}
	}
}

// peakHeap samples the heap in use until stop is called, and returns the
// most seen above what was in use at the start.
func peakHeap() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base && ms.HeapInuse-base > peak.Load() {
				peak.Store(ms.HeapInuse - base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// TestStderrFloodIsBounded: a server writing 100 MB to stderr is kept to its
// last lines, in memory and in the record.
func TestStderrFloodIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("floods 100 MB")
	}
	stop := peakHeap()
	rec, _, err := runFaults(t, faultserver.Target("-stderr-bytes", "100000000", "-crash-on", "1"), 1, Config{})
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	wantError(t, a, record.KindTarget, "calling tool get_total")
	if n := len(a.Error.Stderr); n == 0 || n > 50 || !stderrHas(a.Error.Stderr, "crashing on tool call 1") || !stderrHas(a.Error.Stderr, "flood done") {
		t.Errorf("stderr kept %d lines, want the last 50 at most, the crash among them: %q", n, a.Error.Stderr)
	}
	for _, l := range a.Error.Stderr {
		if len(l) > 4096 {
			t.Errorf("a stderr line of %d bytes was kept", len(l))
		}
	}
	if peak > 64<<20 {
		t.Errorf("the heap grew by %d MB while the server flooded 100 MB of stderr", peak>>20)
	}
}

// bigModel calls the big tool once for the given size, then answers.
type bigModel struct{ bytes int }

func (m bigModel) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	if fake.Turns(r) > 0 {
		return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "done"}}}}, nil
	}
	args := fmt.Sprintf(`{"bytes":%d}`, m.bytes)
	return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "big", Args: json.RawMessage(args)}}}}}, nil
}

func runBig(t *testing.T, tc target.Config, size int) (*record.Run, uint64) {
	t.Helper()
	s := loadSuite(t, faultSuite)
	stop := peakHeap()
	rec, err := Run(context.Background(), Config{Suite: s, Model: bigModel{size}, Target: tc, OutDir: t.TempDir(), Attempts: 1})
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	return rec, peak
}

// TestLongResultIsTruncated: a 1 MB tool result is cut to the cap in the
// record (and for the model), and flagged.
func TestLongResultIsTruncated(t *testing.T) {
	rec, _ := runBig(t, faultserver.Target(), 1<<20)
	a := rec.Attempts[0]
	c := a.Calls()[0]
	if a.End != record.EndAnswered || !c.Truncated || len(c.Result) > 256<<10+64 || !strings.HasSuffix(c.Result, "[truncated by mcpeval]") {
		t.Errorf("end %s, call truncated %v, result of %d bytes", a.End, c.Truncated, len(c.Result))
	}
	st, err := os.Stat(filepath.Join(rec.Dir, record.FileName))
	if err != nil || st.Size() > 300<<10 {
		t.Errorf("record of %d bytes (%v), want it capped", st.Size(), err)
	}
}

// TestHugeResultIsBounded: a 100 MB tool result, over stdio and over HTTP,
// is refused by the transport's bound of 16 MB (an attempt error, not a
// fail) and never held whole in memory: that would take 200 MB at least,
// the JSON and the text decoded from it.
func TestHugeResultIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MB")
	}
	// The HTTP server streams its 100 MB answer without holding it, so that
	// the heap measured is the client's.
	ts := faultyHTTP(t, func(n int, w http.ResponseWriter, body []byte) bool {
		var req struct{ ID json.RawMessage }
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, req.ID)
		chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
		for sent := 0; sent < 100<<20; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return true
			}
		}
		io.WriteString(w, `"}]}}`)
		return true
	})
	for _, tc := range []struct {
		name string
		cfg  target.Config
	}{
		{"stdio", faultserver.Target()},
		{"http", target.Config{Spec: ts.URL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, peak := runBig(t, tc.cfg, 100<<20)
			a := rec.Attempts[0]
			wantError(t, a, record.KindTarget, "calling tool big")
			if a.Error != nil {
				t.Logf("%s: %s", tc.name, a.Error.Message)
			}
			if peak > 80<<20 {
				t.Errorf("the heap grew by %d MB for a 100 MB result", peak>>20)
			}
			st, err := os.Stat(filepath.Join(rec.Dir, record.FileName))
			if err != nil || st.Size() > 64<<10 {
				t.Errorf("record of %d bytes (%v)", st.Size(), err)
			}
		})
	}
}

// longModel answers with text and thinking of n times 17 bytes.
type longModel struct{ n int }

func (m longModel) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	long := strings.Repeat("The total is 42. ", m.n)
	return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Thinking, Text: long}, {Kind: model.Text, Text: long}}}}, nil
}

// TestModelOutputIsCapped: a model turn's text, thinking and answer are cut
// to MaxOutputBytes in the record, and the turn is flagged.
func TestModelOutputIsCapped(t *testing.T) {
	s := loadSuite(t, faultSuite)
	rec, err := Run(context.Background(), Config{Suite: s, Model: longModel{1 << 16}, Target: faultserver.Target(), OutDir: t.TempDir(), Attempts: 1, MaxOutputBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	tr := a.Turns[0]
	if !tr.Truncated || len(tr.Text) > 1100 || len(tr.Thinking) > 1100 || len(a.Answer) > 1100 || !strings.HasPrefix(a.Answer, "The total is 42.") {
		t.Errorf("truncated %v, text %d, thinking %d, answer %d bytes", tr.Truncated, len(tr.Text), len(tr.Thinking), len(a.Answer))
	}
	// A turn under the cap is not flagged.
	rec, err = Run(context.Background(), Config{Suite: s, Model: longModel{1000}, Target: faultserver.Target(), OutDir: t.TempDir(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tr := rec.Attempts[0].Turns[0]; tr.Truncated || len(tr.Text) != 17000 {
		t.Errorf("under the default cap: truncated %v, text %d bytes", tr.Truncated, len(tr.Text))
	}
}

// hostileModel calls the hostile tool, then repeats what it returned.
type hostileModel struct{}

func (hostileModel) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	if fake.Turns(r) > 0 {
		last := r.Messages[len(r.Messages)-1]
		return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "It said: " + last.Blocks[0].Result.Content}}}}, nil
	}
	return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "hostile", Args: json.RawMessage(`{}`)}}}}}, nil
}

// TestHostileResultIsRecordedReadably: a tool result full of control
// characters, escape sequences and bytes that are not UTF-8 reaches the
// record as valid, one-line, escaped JSON and reads back.
func TestHostileResultIsRecordedReadably(t *testing.T) {
	s := loadSuite(t, faultSuite)
	rec, err := Run(context.Background(), Config{Suite: s, Model: hostileModel{}, Target: faultserver.Target(), OutDir: t.TempDir(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(rec.Dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) || bytes.Count(data, []byte("\n")) != 3 {
		t.Errorf("record: valid UTF-8 %v, %d lines (want 3)", utf8.Valid(data), bytes.Count(data, []byte("\n")))
	}
	for _, r := range string(data) {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == 0x202e {
			t.Errorf("the record holds the raw control character %U", r)
		}
	}
	a := rec.Attempts[0]
	res := a.Calls()[0].Result
	for _, want := range []string{"\x00", "\x1b[2J", "\x1b]0;owned\x07", "\u009b", "\u202eevil", "\uFFFD"} {
		if !strings.Contains(res, want) || !strings.Contains(a.Answer, want) {
			t.Errorf("%q did not survive into the recorded result and answer", want)
		}
	}
	if strings.Contains(res, faultserver.Invalid) {
		t.Error("the fault server did not send invalid UTF-8")
	}
}

// TestInterruptAbandonsInFlight: cancelling a run stops starting attempts,
// records none of those in flight, ends the record incomplete, and resuming
// it makes exactly the missing attempts.
func TestInterruptAbandonsInFlight(t *testing.T) {
	s := loadSuite(t, faultSuite)
	m, _ := fake.New("perfect", s)
	info := model.Info{Spec: "fake:perfect"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tc := faultserver.Target("-delay", "20ms")
	rec, err := Run(ctx, Config{Suite: s, Model: m, ModelInfo: info, Target: tc, OutDir: t.TempDir(), Attempts: 12, Concurrency: 3,
		Progress: func(p Progress) {
			if p.Done == 4 {
				cancel()
			}
		}})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err %v, want interrupted", err)
	}
	if rec.Complete() || rec.End == nil || rec.End.Reason != "interrupted" || rec.End.Skipped["interrupted"] == 0 {
		t.Fatalf("end %+v", rec.End)
	}
	if len(rec.Attempts)+rec.End.Skipped["interrupted"] != 12 {
		t.Errorf("%d recorded + %d skipped, want 12", len(rec.Attempts), rec.End.Skipped["interrupted"])
	}
	for _, a := range rec.Attempts {
		if a.End != record.EndAnswered {
			t.Errorf("attempt %d recorded as %s %+v: an interrupted attempt must be abandoned, not recorded", a.N, a.End, a.Error)
		}
	}
	rec2, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: info, Target: tc, Resume: rec, Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !rec2.Complete() || len(rec2.Attempts) != 12 || len(rec2.Warnings) != 0 {
		t.Errorf("resumed: complete %v, %d attempts, warnings %q", rec2.Complete(), len(rec2.Attempts), rec2.Warnings)
	}
	for _, a := range rec2.Attempts {
		if a.End != record.EndAnswered {
			t.Errorf("attempt %d ended %s", a.N, a.End)
		}
	}
}
