package record

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// Format is the record format written in every header.
const Format = "mcpeval-record/1"

// FileName is the record's file name inside a run directory.
const FileName = "record.jsonl"

// Header describes a run: everything needed to say what was measured.
type Header struct {
	Format string    `json:"format"`
	RunID  string    `json:"run_id"`
	Start  time.Time `json:"start"`
	// Tool is mcpeval's own build: its module version, and the revision
	// the Go toolchain stamped into the binary ("unknown" when it stamped
	// none). It never describes the directory mcpeval ran in; the suite's
	// own provenance is in Suite.
	Tool Build `json:"tool"`
	// Model is the model under test and its request options.
	Model model.Info `json:"model"`
	// Suite identifies the corpus.
	Suite SuiteInfo `json:"suite"`
	// Target identifies the MCP server, without secrets.
	Target TargetInfo `json:"target"`
	// SystemPrompt is the fixed system prompt sent with every attempt.
	SystemPrompt string `json:"system_prompt"`
	// Tools are the exact tool definitions the model was shown.
	Tools []Tool `json:"tools"`
	// ToolsHash is the SHA-256 of the canonical JSON of Tools.
	ToolsHash string `json:"tools_hash"`
	// Attempts is the default number of attempts per case.
	Attempts int `json:"attempts"`
	// Concurrency is how many attempts ran at once.
	Concurrency int `json:"concurrency"`
	// TargetPool is how many connections to the target the attempts
	// shared at most; 0 (absent) when they did not share one (each
	// concurrency slot had its own: an action suite, a fresh target, or a
	// negative pool size), or the record predates it.
	TargetPool int `json:"target_pool,omitempty"`
	// InFlight says how the model requests in flight were limited; nil in
	// records that predate it.
	InFlight *InFlight `json:"in_flight,omitempty"`
	// TurnCap is the most model turns an attempt may take.
	TurnCap int `json:"turn_cap"`
	// Planned lists every attempt the run set out to make.
	Planned []Planned `json:"planned"`
	// Preflight is what the preflight found.
	Preflight Preflight `json:"preflight"`
	// Filter is set when the run covers part of the suite (a case filter or
	// a shard), saying how.
	Filter string `json:"filter,omitempty"`
	// ServerTools are the tool definitions as the server listed them, when
	// an overlay changed what the model was shown (Tools).
	ServerTools []Tool `json:"server_tools,omitempty"`
	// ServerToolsHash is the hash of ServerTools.
	ServerToolsHash string `json:"server_tools_hash,omitempty"`
	// Overlay names the overlay applied, if any: descriptions, and the
	// tools whose results it rewrote.
	Overlay *Overlay `json:"overlay,omitempty"`
	// Shard is set on a shard's record: it ran attempt K of every N.
	Shard *Shard `json:"shard,omitempty"`
	// Dataset names the dataset the run was limited to, if any.
	Dataset string `json:"dataset,omitempty"`
	// Surface names the surface of the suite the run measured, when the
	// suite declares surfaces (see Surface).
	Surface *Surface `json:"surface,omitempty"`
	// Extra holds provenance that later features add, keyed by feature.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	// Prices names the price table the run was priced with, when the model
	// is a real one whose provider has a table.
	Prices *PriceTable `json:"prices,omitempty"`
	// Roots are the roots the client declared to the server (the suite's
	// roots:, relative paths resolved); absent when it declared none.
	Roots []Root `json:"roots,omitempty"`
	// LogLevel is the level the server was asked to log at (the suite's
	// log_level:); absent when none was asked for.
	LogLevel string `json:"log_level,omitempty"`
	// Batches are the provider batches the run's attempts were submitted
	// in (run --batch), written before any was polled, so that a resumed
	// run reads their results instead of asking (and paying) again.
	Batches []Batch `json:"batches,omitempty"`
	// Source says where the attempts came from: empty when mcpeval ran
	// them (every record made before the field was), SourceImported when
	// mcpeval import read them from production traffic (OpenTelemetry
	// traces, Langfuse, JSONL), with no fixtures and no preflight of its
	// own.
	Source string `json:"source,omitempty"`
}

// SourceImported is the Source of a run whose attempts mcpeval import read
// from traffic it did not make.
const SourceImported = "imported"

// Imported reports whether the run's attempts were imported traffic.
func (h *Header) Imported() bool { return h.Source == SourceImported }

// Batch is one batch of first-turn requests a provider accepted for a run.
type Batch struct {
	// Provider is the provider's name ("anthropic", "openai").
	Provider string `json:"provider"`
	// ID is the provider's id of the batch.
	ID string `json:"id"`
	// Requests is how many attempts' requests it holds.
	Requests int `json:"requests"`
	// Submitted is when the provider accepted it.
	Submitted time.Time `json:"submitted"`
}

// InFlight is how a run limited the model requests in flight.
type InFlight struct {
	// Adaptive is true when the limit followed the provider's rate-limit
	// headers and refusals, between 1 and Max; false when Max requests
	// were kept in flight whatever the provider said.
	Adaptive bool `json:"adaptive"`
	// Initial is the limit the run started with.
	Initial int `json:"initial"`
	// Max is the most requests ever in flight at once (--concurrency).
	Max int `json:"max"`
}

// PriceTable identifies a price table: whose, when it was read, where from,
// and the SHA-256 of the file that held it.
type PriceTable struct {
	Provider string `json:"provider"`
	Read     string `json:"read"`
	Source   string `json:"source,omitempty"`
	SHA256   string `json:"sha256"`
	// File is the --prices file the table came from; empty for the table
	// built into mcpeval.
	File string `json:"file,omitempty"`
	// Unpriced is true when the table does not list the model: its cost is
	// unknown.
	Unpriced bool `json:"unpriced,omitempty"`
}

// Overlay identifies an overlay: the descriptions the model was shown
// and, under Outputs, the tool results rewritten before it saw them.
type Overlay struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
	// Outputs are the tools whose results the overlay rewrote (its
	// outputs:), in file order; absent when it rewrote none.
	Outputs []OutputOverlay `json:"outputs,omitempty"`
}

// OutputTools names the tools whose results the overlay rewrote, in file
// order.
func (o *Overlay) OutputTools() []string {
	var ts []string
	for _, e := range o.Outputs {
		ts = append(ts, e.Tool)
	}
	return ts
}

// OutputOverlay is an overlay's edit of one tool's results.
type OutputOverlay struct {
	Tool string `json:"tool"`
	// Hash is the SHA-256 of the edit in a canonical form: the same edit
	// hashes the same in any file.
	Hash string `json:"hash"`
	// Edits says in a few words what the edit does.
	Edits string `json:"edits,omitempty"`
}

// Shard says which slice of the attempt matrix a record holds: the planned
// attempts whose index i (from 0, in plan order) has i % N == K-1.
type Shard struct {
	K int `json:"k"`
	N int `json:"n"`
}

// Build is a program's version.
type Build struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	// Dirty is true when the commit had uncommitted changes.
	Dirty bool `json:"dirty,omitempty"`
	// Go is the Go release the program was built with, when known.
	Go string `json:"go,omitempty"`
}

// SuiteInfo identifies a suite.
type SuiteInfo struct {
	Name string `json:"name"`
	// Path is the suite as it was given, relative to the folder the run
	// was made in, or "embedded:NAME".
	Path string `json:"path"`
	// Abs is the suite's absolute path when the run was made, and FromRun
	// its path relative to the run directory (so that a tree moved whole
	// still finds it): Locate reads them. Empty for an embedded suite, and
	// in records made before mcpeval recorded them.
	Abs     string `json:"abs,omitempty"`
	FromRun string `json:"from_run,omitempty"`
	Hash    string `json:"hash"`
	// Cases is how many cases the suite has in all.
	Cases int `json:"cases"`
	// Source says where the suite's files came from, and so what Commit
	// means: SourceGit (a git checkout: Commit and Dirty describe the
	// suite's directory), SourceEmbedded (built into mcpeval: its
	// provenance is Header.Tool) or SourceFiles (files outside any git
	// repository: nothing to point at). Empty in records made before
	// mcpeval recorded it, whose Header.Tool.Commit named the checkout
	// mcpeval ran in.
	Source string `json:"source,omitempty"`
	// Commit is the git commit checked out in the suite's directory when
	// the run was made (Source SourceGit).
	Commit string `json:"commit,omitempty"`
	// Dirty is true when the suite's files had uncommitted changes to
	// tracked files, or were not tracked at all, when the run was made.
	Dirty bool `json:"dirty,omitempty"`
}

// Where a suite's files came from (SuiteInfo.Source).
const (
	SourceGit      = "git"
	SourceEmbedded = "embedded"
	SourceFiles    = "files"
)

// TargetInfo identifies a target. It never holds a header value, a token or
// an environment value.
type TargetInfo struct {
	// Spec is the target as given, with secrets left out.
	Spec string `json:"spec"`
	// Server is the name and version the server reported.
	Server Build `json:"server"`
	// ReadOnly is true when the model was shown read-only tools only.
	ReadOnly bool `json:"read_only"`
	// AllowAnyTarget is true when the run was told to act on a target the
	// suite's actions.allow_targets does not name (run --allow-any-target).
	AllowAnyTarget bool `json:"allow_any_target,omitempty"`
}

// Tool is a tool definition as the server listed it and the model saw it.
type Tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// ReadOnly is the server's readOnlyHint, or the suite's say-so.
	ReadOnly bool `json:"read_only,omitempty"`
	// Destructive is the server's destructiveHint.
	Destructive bool `json:"destructive,omitempty"`
	// Server names the server that lists the tool, when the suite's
	// target is several servers (targets:); ServerTool is the tool's name
	// on that server when the model was shown another (Name is then
	// "SERVER__TOOL": a name more than one server lists).
	Server     string `json:"server,omitempty"`
	ServerTool string `json:"server_tool,omitempty"`
}

// Planned names one attempt a run set out to make.
type Planned struct {
	Case string `json:"case"`
	N    int    `json:"n"`
}

// Key returns the attempt p names.
func (p Planned) Key() AttemptKey { return AttemptKey(p) }

// AttemptKey names one attempt of a run: its case and its number within
// the case, from 1. It is comparable, so it keys maps as it is.
type AttemptKey struct {
	Case string
	N    int
}

// String writes the attempt for people, "case #n", as messages and
// reports name it.
func (k AttemptKey) String() string { return fmt.Sprintf("%s #%d", k.Case, k.N) }

// ID writes the attempt as files key it, "case#n" (the keys of a run's
// judge.json, say). Files already written use this spelling: keep it.
func (k AttemptKey) ID() string { return fmt.Sprintf("%s#%d", k.Case, k.N) }

// MarshalText writes k as ID does, so that a map keyed by attempt is a
// JSON object keyed "case#n".
func (k AttemptKey) MarshalText() ([]byte, error) { return []byte(k.ID()), nil }

// UnmarshalText reads what MarshalText writes: a case id (which may itself
// hold a "#"), "#", and an attempt number from 1.
func (k *AttemptKey) UnmarshalText(b []byte) error {
	s := string(b)
	i := strings.LastIndexByte(s, '#')
	if i <= 0 {
		return fmt.Errorf("attempt %q: want case#n", s)
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return fmt.Errorf("attempt %q: want case#n with n a number from 1", s)
	}
	*k = AttemptKey{s[:i], n}
	return nil
}

// Preflight is the outcome of the preflight checks.
type Preflight struct {
	// Valid is false when the data drifted: then nothing is graded.
	Valid  bool             `json:"valid"`
	Checks []PreflightCheck `json:"checks,omitempty"`
}

// PreflightCheck is one preflight call and what it found.
type PreflightCheck struct {
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Problems []string        `json:"problems,omitempty"`
}

// Attempt is one finished attempt: everything observed, no verdict.
type Attempt struct {
	Case string `json:"case"`
	// N is the attempt's number within its case, from 1.
	N int `json:"n"`
	// Prompt is the prompt exactly as sent.
	Prompt string    `json:"prompt"`
	Start  time.Time `json:"start"`
	// DurationMS is the attempt's wall time.
	DurationMS int64  `json:"duration_ms"`
	Turns      []Turn `json:"turns"`
	// ToolChanges are the changes to the server's tools the attempt saw
	// (notifications/tools/list_changed), in order; absent when none.
	ToolChanges []ToolChange `json:"tool_changes,omitempty"`
	// End says how the attempt ended: "answered" (the model answered in
	// text), "turn_cap" (it was stopped at the turn cap), "tool_call" (a
	// tool-call case's first calls were made) or "error".
	End string `json:"end"`
	// Answer is the model's final text.
	Answer string `json:"answer"`
	// Error is set when End is "error".
	Error *Error `json:"error,omitempty"`
	// Fixture is what was built for the attempt and torn down after it,
	// for cases that need fixtures.
	Fixture *Fixture `json:"fixture,omitempty"`
	// Batch is true when the attempt's model turn was answered through the
	// provider's batch API (one of Header.Batches), and so is priced at
	// the provider's batch rate.
	Batch bool `json:"batch,omitempty"`
}

// Fixture records an attempt's fixtures: what was built before it (under
// names carrying Token), what the target held after it, and the teardown.
type Fixture struct {
	// Token is the fresh token the fixtures' names carry.
	Token string `json:"token"`
	// Facts are the values the fixtures produced, by name (a container's
	// name, full id and short id, say), for rendering the prompt and
	// comparing arguments.
	Facts map[string]string `json:"facts,omitempty"`
	// Setup, Verify and Teardown are the tool calls (or commands) made
	// before the attempt, after it to check the target's state, and to
	// clean up.
	Setup    []Call `json:"setup,omitempty"`
	Verify   []Call `json:"verify,omitempty"`
	Teardown []Call `json:"teardown,omitempty"`
	// Problems are teardown or verify problems worth a person's look; they
	// do not change the attempt's outcome by themselves.
	Problems []string `json:"problems,omitempty"`
}

// How attempts end.
const (
	EndAnswered = "answered"
	EndTurnCap  = "turn_cap"
	EndError    = "error"
	// EndToolCall ends a tool-call case after the model's first turn that
	// made tool calls; the calls are recorded and not executed.
	EndToolCall = "tool_call"
)

// Error says why an attempt could not be completed. It is never the
// model's doing, and the attempt is left out of the pass rate.
type Error struct {
	// Kind is what kept the attempt from being completed: one of the
	// ErrorKind values ("provider", "target", "timeout", "fixture",
	// "budget", "canceled").
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
	// Stderr holds a stdio server's last stderr lines, when it failed.
	Stderr []string `json:"stderr,omitempty"`
}

// ErrorKind says what kept an attempt from being completed (Error.Kind).
// None of them is the model's doing.
type ErrorKind string

// The kinds of attempt error, as records spell them.
const (
	// KindProvider: the model's provider failed or refused the request.
	KindProvider ErrorKind = "provider"
	// KindTarget: the MCP server could not be started, or a tool call
	// failed at the protocol level.
	KindTarget ErrorKind = "target"
	// KindTimeout: a model call or a tool call ran past its deadline.
	KindTimeout ErrorKind = "timeout"
	// KindFixture: the case's fixtures could not be built.
	KindFixture ErrorKind = "fixture"
	// KindBudget: the run's token or spending limit was reached.
	KindBudget ErrorKind = "budget"
	// KindCanceled: the run was interrupted.
	KindCanceled ErrorKind = "canceled"
)

// Turn is one model turn and the tool calls it made.
type Turn struct {
	// Text is the turn's text.
	Text string `json:"text,omitempty"`
	// Thinking is the turn's visible reasoning, if the provider gave any.
	Thinking string `json:"thinking,omitempty"`
	// Calls are the turn's tool calls with what the server did with them.
	Calls      []Call      `json:"calls,omitempty"`
	StopReason string      `json:"stop_reason,omitempty"`
	Usage      model.Usage `json:"usage"`
	LatencyMS  int64       `json:"latency_ms"`
	// Tries are provider refusals before this turn was had.
	Tries []model.Try `json:"tries,omitempty"`
	// Blocks is the assistant message as the provider gave it, for
	// replaying a conversation.
	Blocks []model.Block `json:"blocks,omitempty"`
	// Truncated is true when Text, Thinking or a block's text was cut to
	// the record's size cap.
	Truncated bool `json:"truncated,omitempty"`
	// User is what the user said after this turn's answer, when the case
	// gave the user a turn (its turns:) or a model played the user (its
	// user:); nil when the user said nothing more, and in records that
	// predate user turns.
	User *UserTurn `json:"user,omitempty"`
}

// UserTurn is a message the user said after the model's answer: an entry
// of its case's turns, or what the model playing the user (a simulated
// user, the case's user:) said. A simulated user's turn has no Entry and
// carries the user model's own turn (usage, latency, tries), which counts
// in the run's cost on a row of its own, never in the model under test's.
type UserTurn struct {
	// Entry is the entry's number in the case's turns, from 1; 0 (absent)
	// for a simulated user's turn.
	Entry int `json:"entry,omitempty"`
	// Text is the message exactly as sent; for a simulated user that
	// ended the conversation (Stop), what it answered, which was not sent.
	Text string `json:"text"`
	// Approves is true when the entry agrees to what the model asked
	// before acting.
	Approves bool `json:"approves,omitempty"`
	// Model is the model that played the user; nil for a scripted entry.
	Model *model.Info `json:"model,omitempty"`
	// Stop is true when the simulated user ended the conversation on this
	// turn's answer instead of saying more: nothing was sent, and the
	// answer is the one graded.
	Stop bool `json:"stop,omitempty"`
	// Turn is the user model's own request, as a sampling request's is
	// kept: its text, stop reason, usage, latency and the provider's
	// refusals before it answered; nil for a scripted entry.
	Turn *Turn `json:"turn,omitempty"`
	// Error says why the user model gave no message (it failed); the
	// attempt ends in that error.
	Error string `json:"error,omitempty"`
}

// Simulated reports whether a model played the user on this turn.
func (u *UserTurn) Simulated() bool { return u != nil && u.Model != nil }

// Call is one tool call and the server's answer.
type Call struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	WireName string `json:"wire_name,omitempty"`
	// Args are the arguments exactly as the model wrote them.
	Args json.RawMessage `json:"args"`
	// Result is the text content of the result, as the model was shown it.
	Result string `json:"result"`
	// Structured is the result's structured content, if any, as the model
	// was shown it.
	Structured json.RawMessage `json:"structured,omitempty"`
	// Overlaid is true when an output overlay rewrote the result before
	// the model was shown it: Result and Structured are what it was
	// shown, ServerResult and ServerStructured what the server returned
	// (see Returned). False, and both absent, otherwise.
	Overlaid         bool            `json:"overlaid,omitempty"`
	ServerResult     string          `json:"server_result,omitempty"`
	ServerStructured json.RawMessage `json:"server_structured,omitempty"`
	// IsError is the server's isError: the tool refused or failed the call.
	IsError bool `json:"is_error,omitempty"`
	// Rejected is set when the call never reached the tool: the server
	// rejected it at the protocol level (unknown tool, arguments that do
	// not match the input schema), with the server's message.
	Rejected string `json:"rejected,omitempty"`
	// Shown is false when the model called a tool it was not shown; such a
	// call is not sent to the server. Of a call_tool call on a search
	// surface, it says whether the tool it names was one the model could
	// find.
	Shown bool `json:"shown"`
	// NotSent is true for the first call of a tool-call case: it is
	// asserted, never executed on the server.
	NotSent bool `json:"not_sent,omitempty"`
	// DurationMS is how long the server took to answer, in whole
	// milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// DurationUS is the same time in microseconds, kept because a server
	// on the same machine often answers within a millisecond, where
	// DurationMS says 0. Records written before it was kept lack it (0):
	// read DurationMS then.
	DurationUS int64 `json:"duration_us,omitempty"`
	// Truncated is true when Result was cut to the record's size cap.
	Truncated bool `json:"truncated,omitempty"`
	// Session is the connection to the target that served the call, from 1
	// in the order the run started them, when attempts share a pool of
	// connections (a read-only suite); 0 when each attempt had its own.
	Session int `json:"session,omitempty"`
	// Server names the server the call was routed to, when the suite's
	// target is several servers (targets:).
	Server string `json:"server,omitempty"`
	// Notes are the progress and log notifications the server sent about
	// the call while it ran, in the order they came, at most MaxNotes;
	// NotesDropped counts those beyond.
	Notes        []Note `json:"notes,omitempty"`
	NotesDropped int    `json:"notes_dropped,omitempty"`
	// Kind is CallResource for a call of a client tool that reads the
	// server's resources (resources/list, resources/read) rather than a
	// tool of the server, CallSearch for a search_tools or describe_tool
	// call on a search surface (answered by the harness, never sent);
	// empty for a tool call.
	Kind string `json:"kind,omitempty"`
	// Sampling are the server's sampling requests made during the call,
	// each with the model's answer (serverreq.go).
	Sampling []Sampling `json:"sampling,omitempty"`
	// Elicitations are the server's elicitation requests made during the
	// call, each with the answer given.
	Elicitations []Elicitation `json:"elicitations,omitempty"`
}

// Returned is the call as the server answered it: c itself, unless an
// output overlay rewrote the result, when its Result and Structured are
// the server's.
func (c Call) Returned() Call {
	if c.Overlaid {
		c.Result, c.Structured = c.ServerResult, c.ServerStructured
		c.Overlaid, c.ServerResult, c.ServerStructured = false, "", nil
	}
	return c
}

// CallResource is the Kind of a call that read the server's resources.
const CallResource = "resource"

// CallSearch is the Kind of a call on a search surface that searched or
// described the server's tools (search_tools, describe_tool). A call_tool
// call is a tool call: Kind empty, Shown saying whether the tool it names
// was one the model could find.
const CallSearch = "search"

// Calls returns every tool call of the attempt in order.
func (a *Attempt) Calls() []Call {
	var cs []Call
	for _, t := range a.Turns {
		cs = append(cs, t.Calls...)
	}
	return cs
}

// Key returns the attempt's case and number.
func (a *Attempt) Key() AttemptKey { return AttemptKey{a.Case, a.N} }

// Usage returns the attempt's total usage, its sampling turns included;
// a simulated user's turns are not (they are the user model's own, a cost
// row of their own).
func (a *Attempt) Usage() model.Usage {
	var u model.Usage
	for _, t := range a.Turns {
		u = u.Add(t.Usage)
		for _, s := range t.SampledUsage() {
			u = u.Add(s)
		}
	}
	return u
}

// End closes a run's record.
type End struct {
	Finish time.Time `json:"finish"`
	// Complete is true when every planned attempt was made.
	Complete bool `json:"complete"`
	// Reason says why a run stopped early ("interrupted", "budget", ...).
	Reason string `json:"reason,omitempty"`
	// Skipped counts planned attempts not made, by reason.
	Skipped map[string]int `json:"skipped,omitempty"`
	// Warnings are problems found when the attempts were done, such as
	// what the suite's leftovers check found the attempts left behind.
	Warnings []string `json:"warnings,omitempty"`
}

// line is one line of a record file: exactly one field is set.
type line struct {
	Header  *Header  `json:"header,omitempty"`
	Attempt *Attempt `json:"attempt,omitempty"`
	End     *End     `json:"end,omitempty"`
}
