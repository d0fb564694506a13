package suite

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Suite is a corpus: its settings and cases.
type Suite struct {
	// Name names the suite in records and reports.
	Name string `yaml:"name"`
	// Description says what the suite measures.
	Description string `yaml:"description,omitempty"`
	// Target is the default target: a spec string ("builtin:household",
	// "stdio:CMD ARGS", an http(s) URL) or a mapping with spec, env, dir,
	// headers, inherit_env and connect_timeout (see Target).
	Target Target `yaml:"target,omitempty"`
	// Targets names several servers the model is shown together, each
	// written as Target is; it goes instead of Target (see targets.go).
	Targets map[string]Target `yaml:"targets,omitempty"`
	// SystemPrompt is the fixed system prompt every attempt is sent.
	SystemPrompt string `yaml:"system_prompt,omitempty"`
	// Attempts is how many times each case is asked by default (3 when zero).
	Attempts int `yaml:"attempts,omitempty"`
	// TurnCap is how many model turns an attempt may take before it is
	// ended (8 when zero).
	TurnCap int `yaml:"turn_cap,omitempty"`
	// Concurrency is the most attempts that may run at once (no bound when
	// zero): a --concurrency above it is lowered to it. Attempts that share
	// one world, such as action cases whose teardown rebuilds one
	// repository, need it.
	Concurrency int `yaml:"concurrency,omitempty"`
	// Serial runs one attempt at a time: concurrency 1.
	Serial bool `yaml:"serial,omitempty"`
	// Tolerances are the default tolerances of figure checks.
	Tolerances Tolerances `yaml:"tolerances,omitempty"`
	// Numbers is the locale the answers and tool results write numbers
	// in: it decides their decimal mark (see Locale and FigureOptions).
	// Empty: a point is the decimal mark, and a figure whose reading rests
	// on it ("1.500") is reported ambiguous.
	Numbers Locale `yaml:"numbers,omitempty"`
	// ReadOnlyTools lists tools that count as read-only even though the
	// server does not annotate them so. A read-only run stops if the server
	// shows a tool that is neither annotated read-only nor listed here.
	ReadOnlyTools []string `yaml:"read_only_tools,omitempty"`
	// ReadOnlyLines are the lines of ReadOnlyTools' entries in the suite
	// file (0 where unknown), for error messages.
	ReadOnlyLines []int `yaml:"-"`
	// AllowWrites lets the model see tools that are not read-only. When
	// false (the default) the run is read-only, and it stops before any
	// model request if the target shows a tool that is not marked
	// read-only (by annotation or in ReadOnlyTools).
	AllowWrites bool `yaml:"allow_writes,omitempty"`
	// ToolResults says what of a tool result the model is shown: "text"
	// (the default: the result's text content, as most clients show it) or
	// "text+structured" (the text, then the structured content as JSON when
	// the text does not already carry it — for servers whose text says
	// only "done" and whose data is in the structured content).
	ToolResults string `yaml:"tool_results,omitempty"`
	// Resources offers the model two client tools beside the server's,
	// list_resources and read_resource, served from the server's
	// resources/list and resources/read; the record marks their calls as
	// resource reads, and keys and tools rules name them as tools.
	Resources bool `yaml:"resources,omitempty"`
	// FreshTarget connects to the target anew for every attempt, so that an
	// embedded stateful target starts each attempt with fresh state.
	FreshTarget bool `yaml:"fresh_target,omitempty"`
	// Actions holds the settings of an action suite (fixtures, teardown,
	// turn cap per step).
	Actions *ActionSettings `yaml:"actions,omitempty"`
	// Dataset is the dataset of cases that name none.
	Dataset string `yaml:"dataset,omitempty"`
	// Tools decides which of the target's tools the model is shown (every
	// one when empty); a case's tools.include and tools.exclude narrow it
	// further. The read-only guard looks only at the tools shown.
	Tools ToolFilter `yaml:"tools,omitempty"`
	// Preflight lists tool calls made once before any attempt, with the
	// figures their results must hold; a mismatch makes the run invalid.
	Preflight []PreflightCheck `yaml:"preflight,omitempty"`
	// Slice, when set, shows each attempt a slice of a large catalog: the
	// tools its case names, the tools of their domains, and seeded
	// distractors up to a cap (see Slice).
	Slice *Slice `yaml:"slice,omitempty"`
	// Surfaces are named presentations of the same capabilities (see
	// Surface): one canonical surface, whose tools the cases name, and
	// others that map each canonical tool to their own. Empty: the suite
	// runs on its target alone.
	Surfaces []*Surface `yaml:"surfaces,omitempty"`
	// JudgeAsks is how many times a judge is asked about each answer of a
	// case with a rubric, the majority verdict kept (3 when zero).
	JudgeAsks int `yaml:"judge_asks,omitempty"`
	// DeclinePhrases are phrases that, besides the fixed ones, say an
	// answer declines (a decline case's answer must decline or ask);
	// matched in lower case, like the fixed ones.
	DeclinePhrases []string `yaml:"decline_phrases,omitempty"`
	// ToolErrors says what a tool error a case does not expect (a call the
	// tool refused, isError, or the server rejected, of a tool the case
	// does not list in expected_errors) does to a question case: "fail"
	// (the default) fails it, "note" only counts it. Either way reports
	// count them.
	ToolErrors string `yaml:"tool_errors,omitempty"`
	// Elicitation is the answer a server's elicitation requests get (nil:
	// declined, with a note in the record; see Elicitation); a case's own
	// overrides it.
	Elicitation Elicitations `yaml:"elicitation,omitempty"`
	// Sampling names the model that answers a server's sampling requests
	// (nil: the model under test); see Sampling.
	Sampling *Sampling `yaml:"sampling,omitempty"`
	// Roots are declared to the server as the client's roots (roots/list):
	// each a file:// URI, or a path taken from the suite's folder (see
	// Root). Empty: the client declares none.
	Roots []Root `yaml:"roots,omitempty"`
	// LogLevel is the level the server is asked to send log messages at
	// (debug, info, notice, warning, error, critical, alert, emergency);
	// the messages it sends during a tool call are recorded with the call.
	// Empty or "off": the client asks for none.
	LogLevel string `yaml:"log_level,omitempty"`
	// User is the simulated user of every agent case that has neither
	// turns nor a user of its own (see SimUser); nil: none.
	User *SimUser `yaml:"user,omitempty"`
	// Replay says what of a tool's result mcpeval replay ignores when it
	// compares it with the recorded one (see Replay); nil: nothing.
	Replay *Replay `yaml:"replay,omitempty"`
	// Import says how mcpeval import matches imported conversations to
	// this suite's cases (see Import); nil: the command's --match alone.
	Import *Import `yaml:"import,omitempty"`
	// CasesFrom names further files of cases written as data, read after
	// the YAML files in the order named: JSON Lines (.jsonl, one case
	// object a line) or CSV (.csv, a header row naming the fields, then
	// one case a row), each a path inside the suite's folder, from it.
	// Their cases are the same as YAML cases (see docs/suite.md).
	CasesFrom []string `yaml:"cases_from,omitempty"`
	// Cases are the questions.
	Cases []*Case `yaml:"-"`

	// Path is where the suite was read from ("embedded:household" for the
	// embedded one).
	Path string `yaml:"-"`
	// Hash is the SHA-256 of every file the suite was read from, in the
	// order read, hex-encoded. The lines that record a person's check of
	// a case (its verified, verified_by and verified_at, each on a line of
	// its own) are left out: checking a case changes nothing a model is
	// asked or graded against, so a run stays a run of the same suite.
	Hash string `yaml:"-"`
}

// Root is a root the client declares to the server: URI is a file://
// URI, or a path (relative to the suite's folder when it is not
// absolute) the harness turns into one; Name is optional.
type Root struct {
	URI  string `yaml:"uri"`
	Name string `yaml:"name,omitempty"`
}

// LogLevels are the values of Suite.LogLevel that ask for log messages,
// least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// The values of Suite.ToolErrors.
const (
	// ToolErrorsFail fails a question case on a tool error it does not
	// expect; it is the default.
	ToolErrorsFail = "fail"
	// ToolErrorsNote only counts such errors.
	ToolErrorsNote = "note"
)

// ConcurrencyBound returns the most attempts the suite lets run at once:
// 1 when it is serial, else its concurrency, 0 when it sets no bound.
func (s *Suite) ConcurrencyBound() int {
	if s.Serial {
		return 1
	}
	return s.Concurrency
}

// Dir is the directory the commands of the suite's preflight, fixtures
// and teardowns run in: the suite's directory, or the directory of its
// file; empty (the working directory) for an embedded suite.
func (s *Suite) Dir() string {
	if s.Path == "" || strings.HasPrefix(s.Path, "embedded:") {
		return ""
	}
	if st, err := os.Stat(s.Path); err == nil && st.IsDir() {
		return s.Path
	}
	return filepath.Dir(s.Path)
}

// FailsOnToolErrors reports whether a tool error a question case does not
// expect fails it (tool_errors is fail or unset).
func (s *Suite) FailsOnToolErrors() bool { return s.ToolErrors != ToolErrorsNote }

// Tolerances are the default tolerances of figure checks.
type Tolerances struct {
	// Money is a relative tolerance for money figures, e.g. "1%" (the
	// default).
	Money Tolerance `yaml:"money,omitempty"`
	// Percent is an absolute tolerance in percentage points for figures
	// that are percentages, e.g. "0.1" (the default).
	Percent Tolerance `yaml:"percent,omitempty"`
}

// Tolerance is either relative ("0.25%") or absolute ("0.1", "500").
type Tolerance struct {
	// Relative is a fraction (0.0025 for "0.25%") when the tolerance was
	// written with a percent sign.
	Relative float64
	// Absolute is an absolute difference otherwise.
	Absolute float64
	// Set is true when the tolerance was written down.
	Set bool
}

// ParseTolerance reads "0.25%" as relative and "0.1" as absolute.
func ParseTolerance(s string) (Tolerance, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return Tolerance{}, fmt.Errorf("tolerance %q: want a non-negative number, optionally with %%", s)
		}
		return Tolerance{Relative: v / 100, Set: true}, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return Tolerance{}, fmt.Errorf("tolerance %q: want a non-negative number, optionally with %%", s)
	}
	return Tolerance{Absolute: v, Set: true}, nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Tolerance) UnmarshalText(b []byte) error {
	v, err := ParseTolerance(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (t Tolerance) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// String writes the tolerance back as it is written in a suite; an exact
// tolerance is "0".
func (t Tolerance) String() string {
	if !t.Set {
		return ""
	}
	if t.Relative != 0 {
		return strconv.FormatFloat(t.Relative*100, 'f', -1, 64) + "%"
	}
	return strconv.FormatFloat(t.Absolute, 'f', -1, 64)
}

// Within reports whether got is within the tolerance of want.
func (t Tolerance) Within(got, want float64) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	if t.Relative != 0 {
		w := want
		if w < 0 {
			w = -w
		}
		return d <= t.Relative*w+1e-9
	}
	return d <= t.Absolute+1e-9
}

// PreflightCheck is one call made before the run (a tool, or a command),
// with what its result must hold: values at dotted paths into it (Expect),
// and what its text says (TextCheck). It needs at least one of them.
type PreflightCheck struct {
	// Call is the tool called, with its arguments (none when empty), or
	// the command run instead, in the suite's directory.
	Call `yaml:",inline"`
	// Expect maps a dotted path into the result ("net_worth_sgd",
	// "accounts.0.balance") to the value it must have. The result is the
	// structured content, else the text read as JSON, else the text,
	// which only the empty path leads to.
	Expect map[string]any `yaml:"expect,omitempty"`
	// TextCheck checks the result's text: contains, matches, figures.
	TextCheck `yaml:",inline"`
	// Line locates the check in its file.
	Line int `yaml:"-"`
}

// Case is one question of the corpus.
type Case struct {
	// ID is unique within the suite, conventionally "group/slug".
	ID string `yaml:"id"`
	// Group is the case's group, e.g. "dates".
	Group string `yaml:"group"`
	// Prompt is the question exactly as the model is asked it.
	Prompt string `yaml:"prompt"`
	// Working is the arithmetic behind the expected figures, written for a
	// person to check.
	Working string `yaml:"working,omitempty"`
	// Verified says whether a person has checked the case. False marks a
	// case a tool drafted (mcpeval promote) that nobody has checked yet:
	// publish refuses a run of a suite holding one, unless told to.
	// Absent (nil), the case was written by a person and counts as
	// checked; true says a person checked a drafted one.
	Verified *bool `yaml:"verified,omitempty"`
	// VerifiedBy names the person who set verified: true, and VerifiedAt
	// says when (RFC 3339, or a date); both go only with verified: true.
	// "mcpeval review --verify" writes them. With verified, they are left
	// out of the suite's hash (see Hash).
	VerifiedBy string `yaml:"verified_by,omitempty"`
	VerifiedAt string `yaml:"verified_at,omitempty"`
	// Tools says which tools the model must, may and must not call, and
	// which it is shown.
	Tools ToolRules `yaml:"tools,omitempty"`
	// ExpectedErrors lists tools the case provokes an error from on
	// purpose: a call of one that the tool refused (or the server
	// rejected) still counts as using it. On an action case it adds to
	// action.expected_errors.
	ExpectedErrors []string `yaml:"expected_errors,omitempty"`
	// Answer says what the final answer must and must not say, beside its
	// figures.
	Answer *AnswerCheck `yaml:"answer,omitempty"`
	// Args are the arguments that matter for this question.
	Args []ArgRule `yaml:"args,omitempty"`
	// Figures are the figures the answer must state.
	Figures []Figure `yaml:"figures,omitempty"`
	// NoInventedFigures requires every money figure and percentage in the
	// answer to be traceable to the tool results.
	NoInventedFigures bool `yaml:"no_invented_figures,omitempty"`
	// Estimates allows labelled estimates: figures the data cannot give,
	// stated plainly as estimates with their assumption.
	Estimates bool `yaml:"estimates,omitempty"`
	// Decline marks a question the data cannot answer: an answer that
	// declines and invents nothing passes.
	Decline bool `yaml:"decline,omitempty"`
	// Key is how a correct agent answers; fake:perfect replays it.
	Key Key `yaml:"key,omitempty"`
	// Attempts overrides the suite's attempts for this case.
	Attempts int `yaml:"attempts,omitempty"`
	// Mode is "agent" (the default: the attempt runs to completion and
	// every check applies) or "tool-call" (single turn: only the model's
	// first tool call is asserted, against ExpectTools and ExpectArgs, and
	// nothing is executed on the server).
	Mode string `yaml:"mode,omitempty"`
	// ExpectTools lists the tools a tool-call case's first call may name.
	ExpectTools []string `yaml:"expect_tools,omitempty"`
	// ExpectArgs is a flat object: every listed key must deep-equal the
	// first call's same argument; unlisted arguments are ignored.
	ExpectArgs map[string]any `yaml:"expect_args,omitempty"`
	// Dataset names the dataset the case belongs to ("pr", "merge"); the
	// suite's Dataset when empty.
	Dataset string `yaml:"dataset,omitempty"`
	// ToolChoice, when set, is sent with the attempt's first model request:
	// auto, any (some tool must be called), none (no tool may be), or
	// {tool: NAME} (that tool must be called). Later requests are auto.
	ToolChoice *ToolChoice `yaml:"tool_choice,omitempty"`
	// Elicitation, when set, answers the case's server elicitations
	// instead of the suite's: one answer, or a list answered per request
	// (see Elicitations).
	Elicitation Elicitations `yaml:"elicitation,omitempty"`

	// Judge is the case's rubric for a judge model: advisory, unless
	// GradedBy is "judge".
	Judge *Rubric `yaml:"judge,omitempty"`
	// GradedBy is "judge" for a case with no deterministic check whose
	// grade is its judge's majority verdict; empty (or "checks") otherwise.
	GradedBy string `yaml:"graded_by,omitempty"`

	// Turns are what the user may say after the model's answer, each
	// given at most once an attempt: the first entry not yet given whose
	// condition holds of the answer is sent as the next user message and
	// the conversation goes on; when none holds it ends (see UserTurn).
	Turns []UserTurn `yaml:"turns,omitempty"`
	// MaxUserTurns caps how many turns the user is given in one attempt
	// (DefaultMaxUserTurns when zero).
	MaxUserTurns int `yaml:"max_user_turns,omitempty"`
	// User, when set, is a model that plays the user after each answer
	// (see SimUser), in place of scripted turns: a case has one or the
	// other. A case with neither has the suite's User.
	User *SimUser `yaml:"user,omitempty"`

	// Action is set on the cases of action suites (kinds read, write,
	// sequence, destructive and decline): their key, fixtures and checks.
	Action *Action `yaml:"action,omitempty"`

	// File and Line locate the case for error messages.
	File string `yaml:"-"`
	Line int    `yaml:"-"`
}

// ToolRules are a case's tool-choice rules.
type ToolRules struct {
	// Required tools must all be called.
	Required []string `yaml:"required,omitempty"`
	// Accepted lists tools of which at least one must be called (when not
	// empty).
	Accepted []string `yaml:"accepted,omitempty"`
	// Forbidden tools must not be called.
	Forbidden []string `yaml:"forbidden,omitempty"`
	// ToolFilter (include, exclude) narrows the tools this case's model is
	// shown, within the suite's tools filter.
	ToolFilter `yaml:",inline"`
	// Domains names domains of the suite's slice whose tools this case is
	// shown besides those of the tools it names.
	Domains []string `yaml:"domains,omitempty"`
}

// ArgRule says what an argument of a tool must be, in some call of that
// tool. An argument left out is judged at the default the tool's input
// schema declares.
type ArgRule struct {
	// Tool is the tool whose calls the rule looks at.
	Tool string `yaml:"tool"`
	// Arg is the argument judged.
	Arg string `yaml:"arg"`
	// Equals, when set, is the value the argument must have.
	Equals any `yaml:"equals,omitempty"`
	// Min and Max bound a numeric argument, inclusive.
	Min *float64 `yaml:"min,omitempty"`
	Max *float64 `yaml:"max,omitempty"`
	// Why says what the rule protects, for failure reasons.
	Why string `yaml:"why,omitempty"`
}

// Figure is a figure the answer must state.
type Figure struct {
	// Value is the expected figure.
	Value float64 `yaml:"value"`
	// Kind is "money", "percent" or "count". A figure without a kind is
	// read as money but compared exactly unless it has a tolerance: the
	// suite's tolerances apply only to figures of their kind.
	Kind string `yaml:"kind,omitempty"`
	// Currency names the money's currency ("SGD"), for reasons and answers.
	Currency string `yaml:"currency,omitempty"`
	// Unit names what a count counts ("units"), for reasons and answers.
	Unit string `yaml:"unit,omitempty"`
	// Tolerance overrides the suite's tolerance for this figure's kind.
	// Counts are always exact.
	Tolerance Tolerance `yaml:"tolerance,omitempty"`
	// Label says what the figure is, for reasons ("VOO units").
	Label string `yaml:"label,omitempty"`
}

// Case modes.
const (
	ModeAgent    = "agent"
	ModeToolCall = "tool-call"
)

// IsToolCall reports whether c is a single-turn tool-call case.
func (c *Case) IsToolCall() bool { return c.Mode == ModeToolCall }

// DatasetOf returns the dataset case c belongs to.
func (s *Suite) DatasetOf(c *Case) string {
	if c.Dataset != "" {
		return c.Dataset
	}
	return s.Dataset
}

// Figure kinds.
const (
	Money   = "money"
	Percent = "percent"
	Count   = "count"
)

// Key is how a correct agent answers a case.
type Key struct {
	// Calls are the tool calls a correct agent makes, in order.
	Calls []KeyCall `yaml:"calls,omitempty"`
	// Answer is a correct final answer. When empty, fake:perfect composes
	// one from the case's figures.
	Answer string `yaml:"answer,omitempty"`
	// Asks are questions a correct agent puts to the user before it acts,
	// one a model turn, each answered by one of the case's turns:
	// fake:perfect asks them first, then makes the calls (or an action
	// case's steps) and answers.
	Asks []string `yaml:"asks,omitempty"`
}

// KeyCall is one tool call of a Key.
type KeyCall struct {
	// Tool is the tool called.
	Tool string `yaml:"tool"`
	// Args are the arguments it is called with.
	Args map[string]any `yaml:"args,omitempty"`
}

// AttemptsFor returns how many attempts case c gets by default.
func (s *Suite) AttemptsFor(c *Case) int {
	if c.Attempts > 0 {
		return c.Attempts
	}
	if s.Attempts > 0 {
		return s.Attempts
	}
	return 3
}

// Case returns the case with the given id, or nil.
func (s *Suite) Case(id string) *Case {
	for _, c := range s.Cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Groups returns the case groups in the order they first appear.
func (s *Suite) Groups() []string {
	var gs []string
	seen := map[string]bool{}
	for _, c := range s.Cases {
		if !seen[c.Group] {
			seen[c.Group] = true
			gs = append(gs, c.Group)
		}
	}
	return gs
}

// FigureTolerance returns the tolerance figure f of case c is judged
// with. It is, in order: the figure's own tolerance; exact for a count;
// for a percentage the suite's percent tolerance, else 0.1 points; for
// money (kind: money) the suite's money tolerance, else 1%. A figure with
// no kind and no tolerance of its own is exact: no default applies to it
// silently. c may be nil; it names the case for callers that list
// tolerances.
func (s *Suite) FigureTolerance(c *Case, f Figure) Tolerance {
	if f.Tolerance.Set {
		return f.Tolerance
	}
	switch f.Kind {
	case Percent:
		if s.Tolerances.Percent.Set {
			return s.Tolerances.Percent
		}
		return Tolerance{Absolute: 0.1, Set: true}
	case Money:
		if s.Tolerances.Money.Set {
			return s.Tolerances.Money
		}
		return Tolerance{Relative: 0.01, Set: true}
	default: // a count, or a figure of no kind
		return Tolerance{Absolute: 0, Set: true}
	}
}

// FigureTol is one figure with the tolerance it is judged with.
type FigureTol struct {
	Case   *Case
	Figure Figure
	// Tolerance is FigureTolerance of the figure.
	Tolerance Tolerance
	// Source says where the tolerance comes from: "figure", "suite",
	// "default" or "exact" (a count, or a figure with no kind).
	Source string
}

// FigureTolerances lists every figure of every case with the tolerance it
// is judged with and where that tolerance comes from, in case order.
func (s *Suite) FigureTolerances() []FigureTol {
	var out []FigureTol
	for _, c := range s.Cases {
		for _, f := range c.Figures {
			src := "default"
			switch {
			case f.Tolerance.Set:
				src = "figure"
			case f.Kind == Percent && s.Tolerances.Percent.Set, f.Kind == Money && s.Tolerances.Money.Set:
				src = "suite"
			case f.Kind != Percent && f.Kind != Money:
				src = "exact"
			}
			out = append(out, FigureTol{Case: c, Figure: f, Tolerance: s.FigureTolerance(c, f), Source: src})
		}
	}
	return out
}

// Target says how a suite reaches its server by default. It is written as a
// spec string, or as a mapping when a stdio command needs environment
// variables or a working directory, or an HTTP endpoint needs headers.
type Target struct {
	// Spec is "builtin:NAME", "stdio:CMD ARGS..." or an http(s) URL.
	Spec string `yaml:"spec"`
	// Env adds environment variables to a stdio command; values may name
	// variables of mcpeval's environment as ${VAR}.
	Env map[string]string `yaml:"env,omitempty"`
	// Dir is a stdio command's working directory, relative to the suite.
	Dir string `yaml:"dir,omitempty"`
	// Headers are sent with every HTTP request; values may name variables
	// of the environment as ${VAR} and are never recorded.
	Headers map[string]string `yaml:"headers,omitempty"`
	// InheritEnv gives a stdio command all of mcpeval's environment,
	// provider keys and CI tokens included. It is unsafe (see
	// docs/security.md): without it the command gets PATH, HOME, the
	// locale, TMPDIR and what Env names, and nothing else.
	InheritEnv bool `yaml:"inherit_env,omitempty"`
	// ConnectTimeout bounds starting the server, its initialize handshake
	// and listing its tools, each ("45s"; default 30s).
	ConnectTimeout time.Duration `yaml:"connect_timeout,omitempty"`
	// From reads the target from an mcp.json file (the mcpServers format
	// desktop clients and editors use), relative to the suite; Spec, Env,
	// Dir and Headers then come from the file.
	From string `yaml:"from,omitempty"`
	// Name picks the server of the From file; it may be left out when the
	// file holds one server.
	Name string `yaml:"name,omitempty"`
	// OAuth authorizes mcpeval to an HTTP target protected by OAuth 2.1
	// (see OAuth and docs/targets.md).
	OAuth *OAuth `yaml:"oauth,omitempty"`
}

// OAuth says how mcpeval authorizes itself to an HTTP target that answers
// 401 with OAuth metadata.
type OAuth struct {
	// Flow is "client_credentials" (CI: a client ID and secret, no person),
	// "authorization_code" (a person consents in a browser, through
	// mcpeval login) or "cross_app_access" (an enterprise ID token traded
	// for a token); the default is cross_app_access when IdPIssuer is set,
	// client_credentials when ClientSecret or PrivateKeyFile is set, else
	// authorization_code.
	Flow string `yaml:"flow,omitempty"`
	// ClientID is the client registered with the authorization server;
	// authorization_code may leave it out to register dynamically.
	ClientID string `yaml:"client_id,omitempty"`
	// ClientSecret is the client's secret, written as ${VAR} and read from
	// the environment when connecting; it is never recorded.
	ClientSecret string `yaml:"client_secret,omitempty"`
	// PrivateKeyFile is the PEM private key client_credentials signs its
	// client assertions with (private_key_jwt) instead of a secret; it may
	// name ${VAR}s. The key is never recorded.
	PrivateKeyFile string `yaml:"private_key_file,omitempty"`
	// ClientMetadataURL is the https URL of a client ID metadata document
	// that authorization_code uses as its client ID where the
	// authorization server supports them.
	ClientMetadataURL string `yaml:"client_metadata_url,omitempty"`
	// IdPIssuer, IdPClientID and IdPClientSecret name the enterprise
	// identity provider and mcpeval's client there for cross-app access
	// (flow cross_app_access, the default when IdPIssuer is set); the
	// secret, if any, is written as ${VAR}.
	IdPIssuer       string `yaml:"idp_issuer,omitempty"`
	IdPClientID     string `yaml:"idp_client_id,omitempty"`
	IdPClientSecret string `yaml:"idp_client_secret,omitempty"`
	// IDTokenEnv names the environment variable, IDTokenFile the file,
	// that holds the person's ID token for cross-app access. It is never
	// recorded.
	IDTokenEnv  string `yaml:"id_token_env,omitempty"`
	IDTokenFile string `yaml:"id_token_file,omitempty"`
	// Scopes replace the scopes the server's metadata asks for.
	Scopes []string `yaml:"scopes,omitempty"`
}

// UnmarshalYAML reads a Target from a string or a mapping.
func (t *Target) UnmarshalYAML(construct func(any) error) error {
	var spec string
	if err := construct(&spec); err == nil {
		*t = Target{Spec: spec}
		return nil
	}
	type plain Target
	return construct((*plain)(t))
}
