package runner

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
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
	// Sampler, when set, answers a server's sampling requests instead of
	// Model, and SamplerInfo describes it; the caller opens it, and holds
	// a paid one to its own spend guard.
	Sampler     model.Model
	SamplerInfo model.Info
	// Users are the models that play the suite's simulated users (a
	// case's user:), by spec; the caller opens each, and holds a paid one
	// to its own spend guard. A run whose suite names a user model Users
	// does not hold is refused.
	Users map[string]User
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
	// AllowAnyTarget runs a suite's action cases against a target its
	// actions.allow_targets does not name (targetguard.go); the record's
	// header says so, and publish refuses such a run.
	AllowAnyTarget bool
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
	// RewriteResult, when set, rewrites a tool's result before the model
	// is shown it (an output overlay): given the result's text, its
	// structured content and the tool's names (the name the model is
	// shown, and SERVER/TOOL of one of several servers), it returns what
	// the model is shown and whether that differs. The record keeps both
	// (record.Call.Overlaid). A tool error is never rewritten.
	RewriteResult func(text string, structured json.RawMessage, names ...string) (string, json.RawMessage, bool)
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
