package main

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/internal/ingest"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/model"
)

const importHelp = `
Usage: mcpeval import (--otlp FILE | --listen ADDR [--for DURATION] | --jsonl FILE |
                       --langfuse [--name NAME] [--tag TAG]... [--session ID] [--from TIME] [--to TIME])
                      [--match prompt|attribute[=KEY]] --out DIR [--suite PATH]
       mcpeval import --langfuse-dataset NAME --out FILE.yaml

Reads conversations a model had outside mcpeval (production traffic) into
a run directory, so that mcpeval score grades them against a suite. The
run's header says source: imported.

  --otlp FILE     OpenTelemetry spans in the GenAI conventions, as a file:
                  OTLP/JSON (one request a line: the OpenTelemetry
                  Collector's file exporter) or OTLP protobuf (length-
                  prefixed requests, the file exporter's format: proto, or
                  one OTLP/HTTP request body). Exported with content: a
                  conversation needs its prompt, answer and tool results.
  --listen ADDR   receive OTLP/HTTP (POST /v1/traces, protobuf or JSON) on
                  ADDR until interrupted, or for --for DURATION
  --jsonl FILE    one attempt a line, in the record's attempt shape (a
                  record.jsonl reads as it is)
  --langfuse      the traces of a Langfuse project, through its public API
                  (every page; --name, --tag, --session, --from and --to
                  choose them): each generation a turn, each tool
                  observation a call. Keys come from LANGFUSE_PUBLIC_KEY
                  and LANGFUSE_SECRET_KEY, the host from LANGFUSE_HOST
                  (https://cloud.langfuse.com when unset), as for export.

--langfuse-dataset NAME writes a suite file of cases (--out FILE.yaml)
from the items of a Langfuse dataset, as mcpeval export --langfuse writes
them: each case verified: false unless its item says otherwise.

Each conversation is matched to a case, explicitly:

  --match prompt              the case whose prompt is the conversation's
                              first user message (both trimmed)
  --match attribute[=KEY]     the case the attribute KEY names
                              (mcpeval.case.id, as mcpeval export writes it)

Without --match, the suite's import: settings say (match: prompt,
attribute or rules, docs/production.md); --match overrides them.

Conversations that match no case are listed, and written to
DIR/unmatched.jsonl: none is dropped. See docs/production.md.
`

func init() {
	register(&command{name: "import", summary: "read production traffic (OpenTelemetry, Langfuse, JSONL) into a run to grade", run: importCmd})
}

func importCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "import", importHelp)
	otlpFile := fs.String("otlp", "", "read OTLP spans (JSON or protobuf) from `FILE`")
	listen := fs.String("listen", "", "receive OTLP/HTTP on `ADDR` (host:port)")
	forDur := fs.Duration("for", 0, "with --listen: stop receiving after `DURATION` (default: when interrupted)")
	jsonlFile := fs.String("jsonl", "", "read attempts in the record's shape from `FILE`, one a line")
	matchFlag := fs.String("match", "", "match conversations to cases by `prompt` or attribute[=KEY]")
	out := fs.String("out", "", "the run `DIR` to write")
	suitePath := fs.String("suite", "", "suite `PATH` the cases are matched in (default: the embedded household suite)")
	runID := fs.String("run-id", "", "the run's `ID` (default: import- and the time)")
	fromLangfuse := fs.Bool("langfuse", false, "read the traces of the Langfuse project LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY open")
	dataset := fs.String("langfuse-dataset", "", "write the cases of Langfuse dataset `NAME` to the suite file --out")
	var lf langfuseFlags
	lf.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("unexpected argument %q (see mcpeval help import)", pos[0])
	}
	sources := 0
	for _, s := range []string{*otlpFile, *listen, *jsonlFile, *dataset} {
		if s != "" {
			sources++
		}
	}
	if *fromLangfuse {
		sources++
	}
	if sources != 1 {
		return usagef("say what to import: one of --otlp FILE, --listen ADDR, --jsonl FILE, --langfuse or --langfuse-dataset NAME (see mcpeval help import)")
	}
	if lf.set() && !*fromLangfuse {
		return usagef("--name, --tag, --session, --from and --to go with --langfuse")
	}
	filter, err := lf.filter()
	if err != nil {
		return err
	}
	if *dataset != "" {
		if *matchFlag != "" || *suitePath != "" || *runID != "" {
			return usagef("--langfuse-dataset writes cases, not a run: it takes --out FILE alone")
		}
		if *out == "" {
			return usagef("say where to write the cases: --out FILE")
		}
		return importLangfuseDataset(ctx, e, *dataset, *out)
	}
	if *forDur != 0 && *listen == "" {
		return usagef("--for goes with --listen")
	}
	if *forDur < 0 {
		return usagef("--for must be positive")
	}
	m, err := parseMatch(*matchFlag)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("say where to write the run: --out DIR")
	}
	s, err := loadSuite(*suitePath)
	if err != nil {
		return err
	}
	if m, err = suiteMatch(m, s); err != nil {
		return err
	}
	var convs []ingest.Conversation
	var from string
	switch {
	case *otlpFile != "":
		from = "otlp " + *otlpFile
		convs, err = importOTLPFile(e, *otlpFile)
	case *jsonlFile != "":
		from = "jsonl " + *jsonlFile
		convs, err = importJSONL(*jsonlFile)
	case *fromLangfuse:
		convs, from, err = importLangfuse(ctx, e, filter)
	default:
		from = "otlp listen"
		convs, err = importListen(ctx, e, *listen, *forDur)
	}
	if err != nil {
		return err
	}
	res, err := m.Apply(s, convs)
	if err != nil {
		return usagef("%v", err)
	}
	now := time.Now()
	id := *runID
	if id == "" {
		id = "import-" + now.UTC().Format("20060102-150405")
	}
	p := s.Path
	if *suitePath != "" && !strings.HasPrefix(*suitePath, "embedded:") {
		if _, serr := os.Stat(*suitePath); serr == nil {
			p = *suitePath
		}
	}
	if p == "" {
		p = "embedded:" + s.Name
	}
	models := make([]model.Info, 0, len(convs))
	for _, c := range convs {
		models = append(models, c.Model)
	}
	run := ingest.Run{Dir: *out, RunID: id, Now: now, Build: buildinfo.Get(), Suite: s, SuitePath: p, From: from}
	if err := run.Write(res, models); err != nil {
		if badInputErr(err) {
			return badInput(err)
		}
		return err
	}
	cases := map[string]bool{}
	for _, a := range res.Attempts {
		cases[a.Case] = true
	}
	fmt.Fprintf(e.stdout, "imported %d conversation%s: %d matched to %d case%s, %d unmatched\n",
		len(convs), plural(len(convs)), len(res.Attempts), len(cases), plural(len(cases)), len(res.Unmatched))
	for _, u := range res.Unmatched {
		fmt.Fprintf(e.stdout, "  unmatched %s: %s\n", termsafe.Line(u.From), termsafe.Line(u.Why))
	}
	if len(res.Unmatched) > 0 {
		fmt.Fprintf(e.stdout, "unmatched conversations: %s\n", termsafe.Line(*out+"/"+ingest.UnmatchedFile))
	}
	fmt.Fprintf(e.stdout, "run: %s (grade it with mcpeval score %s)\n", termsafe.Line(*out), termsafe.Line(*out))
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// parseMatch reads --match.
func parseMatch(s string) (ingest.Match, error) {
	by, key, _ := strings.Cut(s, "=")
	switch {
	case s == "":
		return ingest.Match{}, nil // the suite's import: settings say
	case by == ingest.ByPrompt && key == "" && !strings.Contains(s, "="):
		return ingest.Match{By: by}, nil
	case by == ingest.ByAttribute && (key != "" || !strings.Contains(s, "=")):
		return ingest.Match{By: by, Key: key}, nil
	}
	return ingest.Match{}, usagef("--match %q: want prompt, attribute or attribute=KEY", s)
}

func importOTLPFile(e *env, path string) ([]ingest.Conversation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput(fmt.Errorf("reading spans: %w", err))
	}
	defer f.Close()
	var sp ingest.Spans
	if err := sp.ReadFile(f); err != nil {
		return nil, badInput(fmt.Errorf("reading spans from %s: %w", path, err))
	}
	return conversations(e, &sp), nil
}

func conversations(e *env, sp *ingest.Spans) []ingest.Conversation {
	convs, skipped := sp.Conversations()
	if skipped > 0 {
		fmt.Fprintf(e.stderr, "mcpeval import: %d trace%s held no GenAI span (invoke_agent, chat, execute_tool): not conversations\n", skipped, plural(skipped))
	}
	return convs
}

func importJSONL(path string) ([]ingest.Conversation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput(fmt.Errorf("reading attempts: %w", err))
	}
	defer f.Close()
	convs, err := ingest.ReadJSONL(f, path)
	if err != nil {
		return nil, badInput(err)
	}
	return convs, nil
}

// maxRequest is the largest OTLP/HTTP request --listen takes.
const maxRequest = 64 << 20

// importListen receives OTLP/HTTP trace requests on addr until ctx ends or
// d (when positive) has passed.
func importListen(ctx context.Context, e *env, addr string, d time.Duration) ([]ingest.Conversation, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, badInput(fmt.Errorf("listening for OTLP/HTTP: %w", err))
	}
	var mu sync.Mutex
	var sp ingest.Spans
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
			http.Error(w, "not an OTLP trace request (POST /v1/traces)", http.StatusNotFound)
			return
		}
		body, err := readBody(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		err = sp.Add(body, r.Header.Get("Content-Type"))
		mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if r.Header.Get("Content-Type") == "application/json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "{}")
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf") // an empty ExportTraceServiceResponse
	})}
	fmt.Fprintf(e.stderr, "mcpeval import: receiving OTLP/HTTP at http://%s/v1/traces\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	wait := ctx
	if d > 0 {
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	select {
	case <-wait.Done():
	case err := <-done:
		return nil, fmt.Errorf("receiving OTLP/HTTP: %w", err)
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return nil, fmt.Errorf("receiving OTLP/HTTP: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	return conversations(e, &sp), nil
}

// readBody reads an OTLP/HTTP request's body, gzip or not, up to
// maxRequest.
func readBody(r *http.Request) ([]byte, error) {
	var body io.Reader = http.MaxBytesReader(nil, r.Body, maxRequest)
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, fmt.Errorf("reading a gzip body: %w", err)
		}
		body = io.LimitReader(zr, maxRequest)
	}
	return io.ReadAll(body)
}
