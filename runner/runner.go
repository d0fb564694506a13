package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

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
	if err := r.cfg.checkUsers(); err != nil {
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
	if cfg.TurnCap <= 0 && cfg.Surface != nil {
		cfg.TurnCap = cfg.Surface.TurnCap // the surface's own cap, when it sets one
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
		t, err := ResolveTarget(cfg.Suite, TargetOverrides{Surface: cfg.Surface, Base: cfg.Target}) // resolve.go
		if err != nil {
			return nil, err
		}
		cfg.Target = t
	}
	if cfg.Target.ClientVersion == "" {
		cfg.Target.ClientVersion = cfg.Build.Version
	}
	if cfg.Target.Roots == nil && cfg.Target.LogLevel == "" { // a target given as it is
		cfg.Target = withNotify(cfg.Target, cfg.Suite)
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

func (r *run) run(ctx context.Context) (*record.Run, error) {
	cfg := r.cfg
	conn, err := target.Dial(ctx, cfg.Target)
	if err != nil {
		return nil, fmt.Errorf("starting target (before any model request): %w", err)
	}
	defer conn.Close()
	if err := guardTarget(cfg, conn); err != nil { // before the preflight or any fixture
		return nil, err
	}
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
		Target:       record.TargetInfo{Spec: cfg.Target.Describe(), ReadOnly: !cfg.Suite.AllowWrites, AllowAnyTarget: cfg.AllowAnyTarget},
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
	if cfg.Target.LogLevel != "off" {
		r.header.LogLevel = cfg.Target.LogLevel
	}
	r.header.Roots = recordRoots(cfg.Target)
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
