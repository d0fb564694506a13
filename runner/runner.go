package runner

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config configures a run. Zero values take the documented defaults.
type Config struct {
	// Suite is the corpus to run.
	Suite *suite.Suite
	// Target is the MCP server to run it against.
	Target target.Config
	// Model is the model under test, described by ModelInfo.
	Model     model.Model
	ModelInfo model.Info
	// Prices, when set, names the price table the run is priced with; it
	// is recorded in the header.
	Prices *record.PriceTable
	// Attempts overrides the attempts per case (default: the suite's).
	Attempts int
	// Concurrency is how many attempts run at once (default 4).
	Concurrency int
	// FixedConcurrency keeps Concurrency model requests in flight whatever
	// the provider says; by default the requests in flight follow its
	// rate-limit headers and refusals, up to Concurrency (adaptive.go).
	FixedConcurrency bool
	// Warn, when set, is told before the attempts start of what is worth
	// knowing about the run (a prompt prefix too short to cache).
	Warn func(string)
	// TargetPool is how many connections to the target the attempts share
	// when they may (Shares: no action case, no fresh target); 0 means
	// DefaultTargetPool, a negative value gives every concurrency slot its
	// own connection.
	TargetPool int
	// TurnCap is the most model turns an attempt may take (default: the
	// suite's, else 8).
	TurnCap int
	// Cases, when set, runs only the cases whose id equals or starts with
	// one of these (a prefix ending in "/" selects a group). The record
	// says the run is filtered.
	Cases []string
	// OutDir is the run directory (default runs/RUN_ID).
	OutDir string
	// Build is mcpeval's own version, for the record.
	Build record.Build
	// CallTimeout bounds one tool call (default 60s).
	CallTimeout time.Duration
	// MaxResultBytes caps a tool result's text, as recorded and as shown to
	// the model (default 256 KiB); a longer one is cut and flagged.
	MaxResultBytes int
	// MaxOutputBytes caps a model turn's text and its thinking, as
	// recorded (default 256 KiB); a longer one is cut and the turn flagged
	// Truncated. The conversation sent back to the model is not cut.
	MaxOutputBytes int
	// Now and NewID make records reproducible in tests (defaults: the
	// clock and a random id). Now is called from every attempt in flight
	// at once, so it must be safe for concurrent use.
	Now   func() time.Time
	NewID func() string
	// Progress, when set, is told of every finished attempt, from one
	// goroutine at a time.
	Progress func(Progress)
	// BeforeAttempt, when set, is asked before each attempt starts; a
	// non-empty answer skips the attempt and every later one, for that
	// reason ("budget"), and the run ends incomplete.
	BeforeAttempt func() string
	// Overlay, when set, changes the tool definitions the model is shown
	// (descriptions, parameter descriptions) without touching the server;
	// the record keeps both versions. OverlayInfo names it.
	Overlay     func([]record.Tool) ([]record.Tool, error)
	OverlayInfo *record.Overlay
	// Shard, when set, runs only slice K of N of the attempt matrix.
	Shard *record.Shard
	// Dataset, when set, runs only the cases of that dataset.
	Dataset string
	// Surface, when set, is the surface of the suite to run on (see
	// suite.Surface and surface.go): the target defaults to its, and the
	// record names it. Nil runs the suite on its target, as a suite with
	// no surfaces is run.
	Surface *suite.Surface
	// Fixtures, when set, builds each attempt's fixtures before it and
	// tears them down after it.
	Fixtures Fixtures
	// FreshTarget connects to the target anew for every attempt (a builtin
	// target then starts with fresh state).
	FreshTarget bool
	// Resume, when set, continues that run: it runs exactly the planned
	// attempts the record lacks, appending to the same record, and refuses
	// if the suite, the tool definitions or the model changed.
	Resume *record.Run
	// AfterAttempt, when set, is told of every finished attempt before
	// Progress (for budgets that count usage).
	AfterAttempt func(*record.Attempt)
	// Extra is added to the header's Extra of a new run (not of a resumed
	// one, whose header stands): provenance a caller records, by key.
	Extra map[string]json.RawMessage
	// Batch, when set, sends every attempt's first request through the
	// model's batch API instead (batch.go): tool-call cases only, with a
	// model that is a model.Batcher. A resumed run whose record names
	// batches reads them again whether or not it is set.
	Batch *BatchOptions
	// Lean, when set, returns the run without its attempts (Dir, Header,
	// End and Warnings, as record.Reader.Run holds them), for a caller
	// that reads them as a stream (record.Open): the finished record is
	// not read back whole, so a run of any size ends in little memory.
	Lean bool
}

// Fixtures builds and clears the world an attempt acts on. Implementations
// must be safe for concurrent use (each call gets its own connection).
type Fixtures interface {
	// Setup builds what case c needs on conn under names carrying token,
	// and returns the prompt to send (rendered with the fixtures' names)
	// and the fixture record. An error excludes the attempt (it is an
	// error of kind fixture, never a fail).
	Setup(ctx context.Context, conn *target.Conn, c *suite.Case, token string) (prompt string, f *record.Fixture, err error)
	// Finish runs after the attempt, whatever its end: it verifies the
	// target's state and tears down the fixtures and anything the attempt
	// created, recording both in f.
	Finish(ctx context.Context, conn *target.Conn, c *suite.Case, f *record.Fixture, a *record.Attempt)
}

// Progress reports a finished attempt.
type Progress struct {
	Done, Total int
	Attempt     *record.Attempt
	// Header is the run's header, for grading the attempt as it comes.
	Header *record.Header
}

// ErrDuplicateTool is returned (wrapped) before any model request when the
// target lists two tools by one name.
var ErrDuplicateTool = errors.New("duplicate tool name")

// ErrInvalid is returned (wrapped) when the preflight found that the data
// drifted: the record says so and nothing was asked of the model.
var ErrInvalid = errors.New("preflight failed: the target's data is not what the suite expects, so the run is invalid and nothing was graded")

// Run runs cfg and returns the record as written. The record is written
// even when Run returns ErrInvalid or is interrupted; a nil record means
// nothing was written.
func Run(ctx context.Context, cfg Config) (*record.Run, error) {
	r, err := newRun(cfg)
	if err != nil {
		return nil, err
	}
	return r.run(ctx)
}

type run struct {
	cfg     Config
	listed  []record.Tool // as the server listed them
	shown   []record.Tool // as the model saw them
	tools   []model.Tool
	known   map[string]bool
	all     []string // every tool the target lists, shown or not (surface.go)
	header  *record.Header
	w       *record.Writer
	planned []record.Planned
	key     *keyOnce // the prompt cache key (cache.go), shared by forCase's copies
	scrub   scrubber // made once a run: it compiles the secrets it knows
	unsent  error    // why some attempts were left out of the batches (batch.go)
	halt    *halt    // set when the run must stop early (faults.go)
}

func newRun(cfg Config) (*run, error) {
	if cfg.Suite == nil || cfg.Model == nil {
		return nil, errors.New("runner: a run needs a suite and a model")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	if b := cfg.Suite.ConcurrencyBound(); b > 0 && cfg.Concurrency > b {
		if cfg.Warn != nil {
			cfg.Warn(fmt.Sprintf("suite %s runs %s (%s): concurrency %d lowered to %d",
				cfg.Suite.Name, atOnce(b), boundSetting(cfg.Suite), cfg.Concurrency, b))
		}
		cfg.Concurrency = b
	}
	if cfg.TurnCap <= 0 {
		cfg.TurnCap = cfg.Suite.TurnCap
	}
	if cfg.TurnCap <= 0 {
		cfg.TurnCap = 8
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 60 * time.Second
	}
	if cfg.MaxResultBytes <= 0 {
		cfg.MaxResultBytes = 256 << 10
	}
	if cfg.MaxOutputBytes <= 0 {
		cfg.MaxOutputBytes = 256 << 10
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = func() string { return NewRunID(cfg.Now(), cfg.ModelInfo.Spec) }
	}
	if cfg.Target.Spec == "" {
		t, err := ResolveSurfaceTarget(cfg.Suite, cfg.Surface) // the suite's own (or its surface's), or its mcp.json's
		if err != nil {
			return nil, err
		}
		t.Builtins, t.ClientVersion, t.StderrLines = cfg.Target.Builtins, cfg.Target.ClientVersion, cfg.Target.StderrLines
		cfg.Target = t
	}
	if cfg.Target.ClientVersion == "" {
		cfg.Target.ClientVersion = cfg.Build.Version
	}
	if cfg.Target.Spec == "" {
		return nil, errors.New("runner: no target: the suite names none and none was given")
	}
	if err := cfg.Target.Check(); err != nil {
		return nil, err
	}
	if cfg.Batch != nil {
		if err := CheckBatch(cfg); err != nil {
			return nil, err
		}
	}
	if !cfg.FixedConcurrency {
		cfg.Model = newAdaptive(cfg.Model, cfg.Concurrency)
	}
	return &run{cfg: cfg, key: &keyOnce{}, scrub: newScrubber(cfg.Target), halt: &halt{}}, nil
}

// NewRunID returns a run id: the UTC time, the model spec made safe for a
// directory name, and a random suffix.
func NewRunID(t time.Time, spec string) string {
	var b [3]byte
	rand.Read(b[:])
	safe := regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(spec, "-")
	if len(safe) > 40 {
		safe = safe[:40]
	}
	return t.UTC().Format("20060102-150405") + "-" + strings.Trim(safe, "-") + "-" + hex.EncodeToString(b[:])
}

// Plan lists the attempts a configuration sets out to make, in run order:
// case by case, attempt by attempt.
func Plan(s *suite.Suite, attempts int, filter []string) []record.Planned {
	var p []record.Planned
	for _, c := range s.Cases {
		if !Selected(c.ID, filter) {
			continue
		}
		n := attempts
		if n <= 0 {
			n = s.AttemptsFor(c)
		}
		for i := 1; i <= n; i++ {
			p = append(p, record.Planned{Case: c.ID, N: i})
		}
	}
	return p
}

// ShardOf returns slice K of N of a plan: the attempts whose index i has
// i % N == K-1. The N shards of a plan together hold it exactly once.
func ShardOf(plan []record.Planned, sh record.Shard) []record.Planned {
	var out []record.Planned
	for i, p := range plan {
		if i%sh.N == sh.K-1 {
			out = append(out, p)
		}
	}
	return out
}

func filterDataset(s *suite.Suite, plan []record.Planned, dataset string) []record.Planned {
	var out []record.Planned
	for _, p := range plan {
		if c := s.Case(p.Case); c != nil && s.DatasetOf(c) == dataset {
			out = append(out, p)
		}
	}
	return out
}

// Selected reports whether case id is selected by filter (all when empty).
func Selected(id string, filter []string) bool {
	if len(filter) == 0 {
		return true
	}
	for _, f := range filter {
		if id == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(id, f)) || strings.HasPrefix(id, f+"/") {
			return true
		}
	}
	return false
}

func (r *run) run(ctx context.Context) (*record.Run, error) {
	cfg := r.cfg
	conn, err := target.Dial(ctx, cfg.Target)
	if err != nil {
		return nil, fmt.Errorf("starting target (before any model request): %w", err)
	}
	defer conn.Close()
	if err := r.listTools(ctx, conn); err != nil {
		return nil, err
	}
	surface, err := r.onSurface(ctx) // surface.go
	if err != nil {
		return nil, err
	}
	if cfg.Resume != nil {
		return r.resume(ctx, conn)
	}
	r.planned = Plan(cfg.Suite, cfg.Attempts, cfg.Cases)
	if cfg.Dataset != "" {
		r.planned = filterDataset(cfg.Suite, r.planned, cfg.Dataset)
	}
	if cfg.Shard != nil {
		r.planned = ShardOf(r.planned, *cfg.Shard)
	}
	if len(r.planned) == 0 && cfg.Shard == nil { // an empty shard of a small plan is still a shard
		return nil, fmt.Errorf("no attempt of suite %s is selected (cases %v, dataset %q, shard %v)", cfg.Suite.Name, cfg.Cases, cfg.Dataset, cfg.Shard)
	}
	pre, err := r.preflight(ctx, conn)
	if err != nil {
		return nil, err
	}
	runID := cfg.NewID()
	dir := cfg.OutDir
	if dir == "" {
		dir = filepath.Join("runs", runID)
	}
	r.header = &record.Header{
		Format: record.Format,
		RunID:  runID,
		Start:  cfg.Now().UTC(),
		Tool:   cfg.Build,
		Model:  cfg.ModelInfo,
		Suite: record.SuiteInfo{Name: cfg.Suite.Name, Path: cfg.Suite.Path, Hash: cfg.Suite.Hash,
			Cases: len(cfg.Suite.Cases)},
		Target:       record.TargetInfo{Spec: cfg.Target.Describe(), ReadOnly: !cfg.Suite.AllowWrites},
		SystemPrompt: cfg.Suite.SystemPrompt,
		Tools:        r.shown,
		ToolsHash:    ToolsHash(r.shown),
		Attempts:     cfg.Attempts,
		Concurrency:  cfg.Concurrency,
		TargetPool:   poolSize(cfg),
		InFlight:     &record.InFlight{Adaptive: !cfg.FixedConcurrency, Initial: cfg.Concurrency, Max: cfg.Concurrency},
		TurnCap:      cfg.TurnCap,
		Planned:      r.planned,
		Preflight:    pre,
		Prices:       cfg.Prices,
	}
	if len(cfg.Cases) > 0 {
		r.header.Filter = "cases: " + strings.Join(cfg.Cases, ", ")
	}
	r.header.Shard = cfg.Shard
	for k, v := range cfg.Extra {
		if r.header.Extra == nil {
			r.header.Extra = map[string]json.RawMessage{}
		}
		r.header.Extra[k] = v
	}
	r.header.Dataset = cfg.Dataset
	r.header.Surface = surface
	r.recordCaseTools()
	r.header.Suite.SetPaths(dir)
	buildinfo.Suite(cfg.Suite.Path).Record(&r.header.Suite) // the suite's own checkout, not the working directory's
	if cfg.Overlay != nil {
		r.header.ServerTools = r.listed
		r.header.ServerToolsHash = ToolsHash(r.listed)
		r.header.Overlay = cfg.OverlayInfo
	}
	if init := conn.Session.InitializeResult(); init != nil && init.ServerInfo != nil {
		r.header.Target.Server = record.Build{Name: init.ServerInfo.Name, Version: init.ServerInfo.Version}
	}
	r.recordServers(conn)
	r.scrub.header(r.header)
	if msg := CacheWarning(cfg.ModelInfo, cfg.Suite.SystemPrompt, r.shown); msg != "" && cfg.Warn != nil {
		cfg.Warn(msg)
	}
	if cfg.Batch != nil && pre.Valid {
		if err := r.submitBatches(ctx); err != nil { // the batch ids go into the header
			return nil, err
		}
	}
	w, err := record.Create(dir, r.header)
	if err != nil {
		return nil, err
	}
	r.w = w
	if !pre.Valid {
		w.End(&record.End{Finish: cfg.Now().UTC(), Complete: false, Reason: "invalid"})
		rec, rerr := r.readBack(dir)
		if rerr != nil {
			return nil, rerr
		}
		return rec, ErrInvalid
	}
	return r.finish(ctx, conn, dir, r.planned)
}

// finish runs the planned attempts, ends the record and reads it back.
func (r *run) finish(ctx context.Context, conn *target.Conn, dir string, planned []record.Planned) (*record.Run, error) {
	var end *record.End
	if len(r.header.Batches) > 0 {
		end = r.batched(ctx, conn, planned) // batch.go
	} else {
		end = r.attempts(ctx, conn, planned)
	}
	end.Warnings = append(r.leftovers(ctx, conn), r.rateWarnings()...)
	if err := r.w.End(end); err != nil {
		return nil, err
	}
	rec, err := r.readBack(dir)
	if err != nil {
		return nil, err
	}
	if !end.Complete && ctx.Err() != nil {
		return rec, fmt.Errorf("run interrupted: %w", ctx.Err())
	}
	return rec, nil
}

// resume continues cfg.Resume after checking that it measures the same
// thing.
func (r *run) resume(ctx context.Context, conn *target.Conn) (*record.Run, error) {
	old := r.cfg.Resume
	h := old.Header
	var why []string
	if h.Suite.Hash != r.cfg.Suite.Hash {
		why = append(why, fmt.Sprintf("the suite changed (hash %.12s, the run was made with %.12s)", r.cfg.Suite.Hash, h.Suite.Hash))
	}
	if th := ToolsHash(r.shown); th != h.ToolsHash {
		why = append(why, fmt.Sprintf("the target's tool definitions changed (hash %.12s, the run saw %.12s)", th, h.ToolsHash))
	}
	if r.cfg.ModelInfo.Spec != h.Model.Spec {
		why = append(why, fmt.Sprintf("the model or its options changed (%s, the run used %s)", r.cfg.ModelInfo.Spec, h.Model.Spec))
	}
	if !h.Preflight.Valid {
		why = append(why, "the run is invalid (its preflight failed)")
	}
	if len(why) > 0 {
		return nil, fmt.Errorf("cannot resume %s: %s; start a new run instead", old.Dir, strings.Join(why, "; "))
	}
	done := map[record.Planned]bool{}
	for _, a := range old.Attempts {
		done[record.Planned{Case: a.Case, N: a.N}] = true
	}
	var missing []record.Planned
	for _, p := range h.Planned {
		if !done[p] {
			if r.cfg.Suite.Case(p.Case) == nil {
				return nil, fmt.Errorf("cannot resume %s: case %s is no longer in the suite", old.Dir, p.Case)
			}
			missing = append(missing, p)
		}
	}
	r.header = &h
	r.planned = h.Planned
	w, err := record.Append(old.Dir)
	if err != nil {
		return nil, err
	}
	r.w = w
	return r.finish(ctx, conn, old.Dir, missing)
}

// recordTool is a listed tool as a record keeps it: its input schema as
// canonical JSON, its annotations' hints, and read-only too when readOnly
// (the suite's read_only_tools) names it.
func recordTool(t *mcp.Tool, readOnly map[string]bool) (record.Tool, error) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return record.Tool{}, err
	}
	rt := record.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: canonical(schema)}
	if a := t.Annotations; a != nil {
		rt.ReadOnly = a.ReadOnlyHint
		rt.Destructive = a.DestructiveHint != nil && *a.DestructiveHint
	}
	rt.ReadOnly = rt.ReadOnly || readOnly[t.Name]
	return rt, nil
}

// ToolsHash is the SHA-256 of the canonical JSON of the tool definitions.
func ToolsHash(tools []record.Tool) string {
	b, _ := json.Marshal(tools)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (r *run) listTools(ctx context.Context, conn *target.Conn) error {
	listed, err := conn.Tools(ctx)
	if err != nil {
		return fmt.Errorf("starting target (before any model request): %w", err)
	}
	if err := r.resolveServers(conn, listed); err != nil { // several servers: SERVER/TOOL names
		return err
	}
	if listed, err = r.withResourceTools(conn, listed); err != nil { // resources: true
		return err
	}
	readOnly := map[string]bool{}
	for _, t := range r.cfg.Suite.ReadOnlyTools {
		readOnly[t] = true
	}
	r.known = map[string]bool{}
	var names []string
	var writes []string
	for _, t := range listed {
		rt, err := recordTool(t, readOnly)
		if err != nil {
			return fmt.Errorf("tool %s: encoding input schema: %w", t.Name, err)
		}
		serve(conn, &rt)
		if t.Annotations != nil && rt.Title == "" {
			rt.Title = t.Annotations.Title
		}
		if !rt.ReadOnly {
			writes = append(writes, t.Name)
		}
		if r.known[t.Name] {
			return fmt.Errorf("%w: the target lists the tool %q twice, and model providers refuse a request whose tools share a name; nothing was sent", ErrDuplicateTool, t.Name)
		}
		names = append(names, t.Name)
		r.known[t.Name] = true
		r.shown = append(r.shown, rt)
		r.tools = append(r.tools, model.Tool{Name: rt.Name, Description: rt.Description, InputSchema: rt.InputSchema})
	}
	r.all = names
	writes = r.hideTools(writes) // the suite's and cases' tools filters
	if err := r.cfg.Suite.CheckTools(r.cfg.Surface.CanonicalNames(names)); err != nil {
		return fmt.Errorf("the suite names tools the target does not list:\n%w", err)
	}
	if err := r.cfg.Suite.CheckFiltersOn(r.cfg.Surface, names); err != nil { // surface.go
		return fmt.Errorf("the suite's tools filters cannot be kept on surface %s:\n%w", r.cfg.Surface.Name, err)
	}
	if err := r.checkCases(names); err != nil { // slices and tool_choice
		return err
	}
	r.listed = r.shown
	if r.cfg.Overlay != nil {
		shown, err := r.cfg.Overlay(r.listed)
		if err != nil {
			return fmt.Errorf("applying overlay: %w", err)
		}
		r.shown = shown
		r.tools = r.tools[:0]
		for _, t := range shown {
			r.tools = append(r.tools, model.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
	}
	if len(writes) > 0 && !r.cfg.Suite.AllowWrites && !onlyToolCalls(r.cfg) { // a tool-call case executes nothing
		return fmt.Errorf("read-only run stopped before any model request: the target shows tools not marked read-only: %s (mark them readOnlyHint, list them in the suite's read_only_tools, or set allow_writes)", strings.Join(writes, ", "))
	}
	return nil
}

// canonical re-encodes JSON with sorted keys, so that equal schemas hash
// equally.
func canonical(b []byte) json.RawMessage {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// attempts runs the planned attempts on at most cfg.Concurrency workers,
// and never more workers than attempts, and says how the run ended. The
// first worker uses first, the run's connection; the others dial their
// own.
func (r *run) attempts(ctx context.Context, first *target.Conn, planned []record.Planned) *record.End {
	cfg := r.cfg
	workers := max(1, min(cfg.Concurrency, len(planned)))
	t := &tally{total: len(planned), skipped: map[string]int{}, slots: make(chan struct{}, workers)}
	jobs := make(chan record.Planned)
	var wg sync.WaitGroup
	pl := r.newPool(first) // nil unless the attempts share connections
	for i := 0; i < workers; i++ {
		w := &worker{r: r, t: t, first: first, pool: pl}
		if i == 0 && pl == nil {
			w.conn = first
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(ctx, jobs)
		}()
	}
	before := func() string {
		if why := r.halt.reason(); why != "" {
			return why
		}
		if cfg.BeforeAttempt != nil {
			return cfg.BeforeAttempt()
		}
		return ""
	}
	stopReason := t.hand(ctx, planned, jobs, before)
	close(jobs)
	wg.Wait()
	if pl != nil {
		pl.close()
	}
	if ctx.Err() != nil {
		stopReason = "interrupted"
	}
	e := t.end(cfg.Now(), stopReason)
	if why := r.halt.reason(); why != "" {
		// Even when the attempt that met it was the last one: a run whose
		// target moved under it is not a complete measure of the target.
		e.Complete = false
		if e.Reason == "" {
			e.Reason = why
		}
	}
	return e
}

// end says how the run ended at now, for reason (or a failed write's):
// complete when nothing was skipped and every write succeeded.
func (t *tally) end(now time.Time, reason string) *record.End {
	e := &record.End{Finish: now.UTC(), Complete: len(t.skipped) == 0 && t.writeErr == nil, Reason: reason}
	if len(t.skipped) > 0 {
		e.Skipped = t.skipped
	}
	if t.writeErr != nil {
		e.Reason = t.writeErr.Error()
	}
	return e
}

// tally is what the workers of a run share: the attempts done and
// skipped, the first failure to write the record, and the slots that bound
// the attempts started but not yet recorded, so that BeforeAttempt (a
// budget) sees every earlier attempt's spending except those still in
// flight.
type tally struct {
	total int
	slots chan struct{}

	mu       sync.Mutex
	done     int
	skipped  map[string]int
	writeErr error
}

// hand gives the planned attempts to the workers one by one, each once a
// slot is free, and stops at an interruption, a refusal by before, or a
// failed write. It returns why it stopped early, or "".
func (t *tally) hand(ctx context.Context, planned []record.Planned, jobs chan<- record.Planned, before func() string) string {
	for i, p := range planned {
		select {
		case t.slots <- struct{}{}: // a worker is free, or will be
		case <-ctx.Done():
		}
		why := ""
		switch {
		case ctx.Err() != nil:
			why = "interrupted"
		case before != nil:
			why = before()
		}
		if why == "" && t.writeFailed() {
			why = "record write failed"
		}
		if why != "" {
			t.skip(why, len(planned)-i)
			return why
		}
		jobs <- p // a slot is held, so a worker takes it
	}
	return ""
}

func (t *tally) skip(why string, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.skipped[why] += n
}

func (t *tally) writeFailed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.writeErr != nil
}

// recorded counts an attempt written (err nil) or not, and reports
// progress.
func (t *tally) recorded(a *record.Attempt, err error, progress func(Progress), h *record.Header) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil && t.writeErr == nil {
		t.writeErr = err
	}
	t.done++
	if progress != nil {
		progress(Progress{Done: t.done, Total: t.total, Attempt: a, Header: h})
	}
}

// worker runs attempts one after another over its own connection to the
// target, dialling it again when it is missing: for a fresh target on
// every attempt, or after the target failed.
type worker struct {
	r     *run
	t     *tally
	first *target.Conn // the run's connection: never closed here but after a failure
	conn  *target.Conn // nil when there is none yet
	pool  *pool        // set when the attempts share connections
}

// work runs the attempts it is given until jobs is closed.
func (w *worker) work(ctx context.Context, jobs <-chan record.Planned) {
	defer func() {
		if w.conn != nil && w.conn != w.first {
			w.conn.Close()
		}
	}()
	for p := range jobs {
		w.one(ctx, p)
		<-w.t.slots
	}
}

// one runs, scrubs and records one attempt. An attempt that failed while
// the run is being interrupted is abandoned instead: the error may be the
// interruption's doing (a stdio server gets the terminal's Ctrl-C too), so
// it is not recorded and --resume runs it again.
func (w *worker) one(ctx context.Context, p record.Planned) {
	if w.pool != nil {
		if a := w.pool.attempt(ctx, p); a != nil {
			w.keep(a)
		} else {
			w.t.skip("interrupted", 1)
		}
		return
	}
	dialErr := w.connect(ctx)
	a := w.r.attempt(ctx, w.conn, p)
	if ctx.Err() != nil && a.End == record.EndError {
		w.t.skip("interrupted", 1)
		return
	}
	if w.conn == nil && dialErr != nil {
		explainDial(a, dialErr)
	}
	if a.End == record.EndError && (a.Error.Kind == record.KindTarget || a.Error.Kind == record.KindTimeout) && w.conn != nil {
		restart(a, w.conn)
		w.conn = nil // restart the server for the next attempt
	}
	w.keep(a)
}

// keep scrubs and records a finished attempt.
func (w *worker) keep(a *record.Attempt) {
	cfg := w.r.cfg
	if cfg.AfterAttempt != nil {
		cfg.AfterAttempt(a)
	}
	w.r.scrub.attempt(a)
	w.t.recorded(a, w.r.w.Attempt(a), cfg.Progress, w.r.header)
}

// connect drops the connection when every attempt gets a fresh target,
// and dials one when there is none.
func (w *worker) connect(ctx context.Context) error {
	if w.r.cfg.FreshTarget && w.conn != nil {
		if w.conn != w.first {
			w.conn.Close()
		}
		w.conn = nil
	}
	if w.conn != nil {
		return nil
	}
	c, err := target.Dial(ctx, w.r.cfg.Target)
	w.r.halt.check(err)
	if err == nil {
		w.conn = c
	}
	return err
}

// attempt puts case p to the model over conn (nil when the target could
// not be started) until it answers, asks nothing more, or reaches the
// turn cap.
func (r *run) attempt(ctx context.Context, conn *target.Conn, p record.Planned) *record.Attempt {
	cfg := r.cfg
	c := cfg.Suite.Case(p.Case)
	r = r.forCase(c) // only the tools this case is shown
	start := cfg.Now()
	at := &conversation{r: r, ctx: ctx, conn: conn, c: c,
		a: &record.Attempt{Case: p.Case, N: p.N, Prompt: c.Prompt, Start: start.UTC()}}
	a := at.a
	defer func() { a.DurationMS = cfg.Now().Sub(start).Milliseconds() }()
	if conn == nil {
		return at.fail(record.KindTarget, "the target could not be started for this attempt", nil)
	}
	turnCap := cfg.TurnCap
	if cfg.Fixtures != nil && c.Action != nil {
		prompt, f, err := cfg.Fixtures.Setup(ctx, conn, c, newToken())
		a.Fixture = f
		if err != nil {
			return at.fail(record.KindFixture, err.Error(), conn.Stderr())
		}
		defer func() { cfg.Fixtures.Finish(context.WithoutCancel(ctx), conn, c, f, a) }()
		a.Prompt = prompt
		turnCap = cfg.Suite.ActionTurnCap(c)
	}
	at.req = r.firstRequest(c, a.Prompt)
	for turn := 0; turn < turnCap; turn++ {
		if at.turn() {
			return a
		}
	}
	a.End = record.EndTurnCap
	return a
}

// firstRequest is an attempt's first request to the model, for case c
// (r being forCase(c)) with prompt.
func (r *run) firstRequest(c *suite.Case, prompt string) *model.Request {
	return &model.Request{
		CaseID:   c.ID,
		System:   r.cfg.Suite.SystemPrompt,
		Tools:    r.tools,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: prompt}}}},
		CacheKey: r.cacheKey(),
		// The case's tool_choice holds for its first request only.
		ToolChoice: toolChoice(r.cfg.Suite, r.cfg.Surface, c),
	}
}

// conversation is one attempt under way: the messages so far and the
// record being filled in.
type conversation struct {
	r    *run
	ctx  context.Context
	conn *target.Conn
	c    *suite.Case
	a    *record.Attempt
	req  *model.Request
}

// fail ends the attempt in an error.
func (at *conversation) fail(kind record.ErrorKind, msg string, stderr []string) *record.Attempt {
	at.a.End = record.EndError
	at.a.Error = &record.Error{Kind: kind, Message: msg, Stderr: stderr}
	return at.a
}

// turn asks the model once and acts on what it says: an answer or a
// tool-call case's first calls end the attempt; tool calls are sent and
// their results become the next message. It reports whether the attempt
// has ended.
func (at *conversation) turn() bool {
	cfg := at.r.cfg
	t0 := time.Now()
	resp, err := cfg.Model.Generate(at.ctx, at.req)
	at.req.ToolChoice = nil // later requests leave the choice to the model
	if err != nil {
		at.modelFailed(err)
		return true
	}
	lat := resp.Latency
	if lat == 0 {
		lat = time.Since(t0)
	}
	rt := record.Turn{
		Text:       resp.Message.TextOf(),
		StopReason: resp.StopReason,
		Usage:      resp.Usage,
		LatencyMS:  lat.Milliseconds(),
		Tries:      resp.Tries,
		Blocks:     recordable(resp.Message.Blocks),
	}
	for _, b := range resp.Message.Blocks {
		if b.Kind == model.Thinking {
			rt.Thinking += b.Text
		}
	}
	capTurn(&rt, cfg.MaxOutputBytes)
	calls := resp.Message.Calls()
	resp.Message.Role = model.Assistant
	at.req.Messages = append(at.req.Messages, resp.Message)
	switch {
	case len(calls) == 0:
		at.answered(rt)
		return true
	case at.c.IsToolCall():
		at.calledFirst(rt, calls)
		return true
	}
	return at.callTools(rt, calls)
}

// modelFailed ends the attempt for a model request that failed.
func (at *conversation) modelFailed(err error) {
	if at.ctx.Err() != nil {
		at.fail(record.KindCanceled, "interrupted", nil)
		return
	}
	var pe *model.ProviderError
	if errors.As(err, &pe) {
		at.a.Turns = append(at.a.Turns, record.Turn{Tries: pe.Tries})
	}
	kind := record.KindProvider
	if pe == nil && errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	at.fail(kind, err.Error(), nil)
}

// answered ends the attempt with the model's answer in text.
func (at *conversation) answered(rt record.Turn) {
	rt.Blocks = nil
	at.a.Turns = append(at.a.Turns, rt)
	at.a.End = record.EndAnswered
	at.a.Answer = rt.Text
}

// calledFirst ends a tool-call case's attempt at the model's first calls,
// which are recorded and not sent.
func (at *conversation) calledFirst(rt record.Turn, calls []model.Call) {
	for _, call := range calls {
		rc := record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args, Shown: at.r.known[call.Name], NotSent: true}
		if rc.Shown {
			rc.Server = callServer(at.conn, call.Name)
		}
		if !json.Valid(call.Args) {
			rc.Args = jsonString(string(call.Args))
		}
		rt.Calls = append(rt.Calls, rc)
	}
	at.a.Turns = append(at.a.Turns, rt)
	at.a.End = record.EndToolCall
}

// callTools sends the turn's calls to the target and puts their results
// to the model. A failure of the target itself ends the attempt (and the
// result is true).
func (at *conversation) callTools(rt record.Turn, calls []model.Call) bool {
	results := model.Message{Role: model.User}
	for _, call := range calls {
		rc, res, err := at.r.call(at.ctx, at.conn, call)
		rt.Calls = append(rt.Calls, rc)
		if err != nil {
			at.a.Turns = append(at.a.Turns, rt)
			at.targetFailed(err)
			return true
		}
		results.Blocks = append(results.Blocks, model.Block{Kind: model.ToolResult, Result: res})
	}
	at.a.Turns = append(at.a.Turns, rt)
	at.req.Messages = append(at.req.Messages, results)
	return false
}

// targetFailed ends the attempt for a tool call the target could not
// answer.
func (at *conversation) targetFailed(err error) {
	if at.ctx.Err() != nil {
		at.fail(record.KindCanceled, "interrupted", nil)
		return
	}
	kind := record.KindTarget
	if errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	at.fail(kind, err.Error(), at.conn.Stderr())
}

// call sends one tool call to the server verbatim. It returns an error only
// when the target itself failed (crashed, hung, refused the connection);
// a tool's refusal and a protocol rejection are results the model sees.
func (r *run) call(ctx context.Context, conn *target.Conn, call model.Call) (record.Call, *model.Result, error) {
	rc := record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args, Shown: r.known[call.Name]}
	if !json.Valid(call.Args) {
		rc.Args = jsonString(string(call.Args))
	}
	res := &model.Result{CallID: call.ID, Name: call.Name, IsError: true}
	if !rc.Shown {
		res.Content = fmt.Sprintf("unknown tool %q", call.Name)
		rc.Rejected, rc.Result = res.Content, res.Content
		return rc, res, nil
	}
	var args any = json.RawMessage(call.Args)
	if len(call.Args) == 0 {
		args = map[string]any{}
	} else if !json.Valid(call.Args) {
		res.Content = "invalid arguments: not valid JSON"
		rc.Rejected, rc.Result = res.Content, res.Content
		return rc, res, nil
	}
	cctx, cancel := context.WithTimeout(ctx, r.cfg.CallTimeout)
	defer cancel()
	t0 := time.Now()
	rc.Server = callServer(conn, call.Name)
	out, err := r.resourceOr(cctx, conn, &rc, call.Name, args) // a resource tool reads resources
	r.halt.check(err)
	took := time.Since(t0)
	rc.DurationMS, rc.DurationUS = took.Milliseconds(), took.Microseconds()
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) && (we.Code == jsonrpc.CodeInvalidParams || we.Code == jsonrpc.CodeMethodNotFound) {
			// The server refused the call itself (an unknown tool, arguments
			// that do not fit the schema): the model sees why. Any other
			// JSON-RPC error (an internal error, a 5xx with an error body)
			// is the target failing, below.
			res.Content = we.Message
			rc.Rejected, rc.Result = we.Message, we.Message
			return rc, res, nil
		}
		if cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return rc, nil, fmt.Errorf("tool %s did not answer within %s: %w", call.Name, r.cfg.CallTimeout, context.DeadlineExceeded)
		}
		return rc, nil, fmt.Errorf("calling tool %s: %w", call.Name, err)
	}
	var text strings.Builder
	for _, c := range out.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			if text.Len() > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(c.Text)
		default:
			b, _ := json.Marshal(c)
			text.Write(b)
		}
	}
	content := text.String()
	if len(content) > r.cfg.MaxResultBytes {
		content = truncate(content, r.cfg.MaxResultBytes)
		rc.Truncated = true
	}
	if out.StructuredContent != nil {
		if b, err := json.Marshal(out.StructuredContent); err == nil && len(b) <= r.cfg.MaxResultBytes {
			rc.Structured = b
		} else {
			rc.Truncated = true
		}
	}
	if r.cfg.Suite.ToolResults == "text+structured" && len(rc.Structured) > 0 && !strings.Contains(content, string(rc.Structured)) {
		if content != "" {
			content += "\n"
		}
		content += string(rc.Structured)
	}
	rc.Result, rc.IsError = content, out.IsError
	res.Content, res.IsError, res.Structured = content, out.IsError, rc.Structured
	return rc, res, nil
}

// recordable returns blocks safe to encode: a call's arguments that are not
// valid JSON are kept as a JSON string of what the model wrote.
func recordable(blocks []model.Block) []model.Block {
	out := make([]model.Block, len(blocks))
	for i, b := range blocks {
		if b.Call != nil && !json.Valid(b.Call.Args) {
			c := *b.Call
			c.Args = jsonString(string(c.Args))
			b.Call = &c
		}
		if len(b.Opaque) > 0 && !json.Valid(b.Opaque) {
			b.Opaque = jsonString(string(b.Opaque))
		}
		out[i] = b
	}
	return out
}

// newToken returns a fresh token for fixture names: 6 lowercase hex digits.
func newToken() string {
	var b [3]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func truncate(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 { // keep runes whole
		n--
	}
	return s[:n] + "\n[truncated by mcpeval]"
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// Inspection is what Validate found on a live target.
type Inspection struct {
	// Server is the name and version the server reported.
	Server record.Build
	// Tools are the tools the model would be shown.
	Tools []record.Tool
	// Preflight is what the preflight checks found.
	Preflight record.Preflight
	// Servers are, for a target made of several servers, each of them
	// (servers.go); nil for a single server.
	Servers []InspectedServer
}

// Validate connects to the target, lists its tools, checks the suite
// against them (every tool it names exists; a read-only suite sees only
// read-only tools) and runs the preflight, without asking any model.
func Validate(ctx context.Context, s *suite.Suite, t target.Config) (*Inspection, error) {
	r, err := newRun(Config{Suite: s, Target: t, Model: noModel{}})
	if err != nil {
		return nil, err
	}
	conn, err := target.Dial(ctx, r.cfg.Target)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ins := &Inspection{}
	if init := conn.Session.InitializeResult(); init != nil && init.ServerInfo != nil {
		ins.Server = record.Build{Name: init.ServerInfo.Name, Version: init.ServerInfo.Version}
	}
	if err := r.listTools(ctx, conn); err != nil {
		ins.Tools = r.shown
		return ins, err
	}
	ins.Tools = r.shown
	ins.Servers = r.inspectServers(conn)
	ins.Preflight, err = r.preflight(ctx, conn)
	return ins, err
}

type noModel struct{}

func (noModel) Generate(context.Context, *model.Request) (*model.Response, error) {
	return nil, errors.New("no model")
}

// SuiteTarget returns the target a suite names, with its environment,
// headers and working directory; a relative directory is taken from the
// suite's own folder. It is the target Run uses when Config.Target has no
// spec.
func SuiteTarget(s *suite.Suite) target.Config {
	t := target.Config{Spec: s.Target.Spec, Env: s.Target.Env, Dir: s.Target.Dir, Headers: s.Target.Headers,
		InheritEnv: s.Target.InheritEnv, ConnectTimeout: s.Target.ConnectTimeout}
	if o := s.Target.OAuth; o != nil {
		t.OAuth = &target.OAuth{Flow: o.Flow, ClientID: o.ClientID, ClientSecret: o.ClientSecret, PrivateKeyFile: o.PrivateKeyFile, ClientMetadataURL: o.ClientMetadataURL, Scopes: o.Scopes}
	}
	if t.Dir != "" && !filepath.IsAbs(t.Dir) && !strings.HasPrefix(s.Path, "embedded:") {
		base := s.Path
		if st, err := os.Stat(base); err == nil && !st.IsDir() {
			base = filepath.Dir(base)
		}
		t.Dir = filepath.Join(base, t.Dir)
	}
	return t
}

// atOnce says how many attempts a suite's bound lets run at once.
func atOnce(n int) string {
	if n == 1 {
		return "one attempt at a time"
	}
	return fmt.Sprintf("at most %d attempts at once", n)
}

// boundSetting names the suite setting that bounds its concurrency.
func boundSetting(s *suite.Suite) string {
	if s.Serial {
		return "serial: true"
	}
	return fmt.Sprintf("concurrency: %d", s.Concurrency)
}
