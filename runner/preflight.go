package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// preflight makes each of the suite's preflight calls once (a tool, or a
// command) and checks what its result holds: values at dotted paths, and
// what its text says. Any mismatch makes the run invalid; each problem
// says which check found it. A tool call that fails outright (the server
// crashed, hung or broke the protocol) is not a drift of the data but an
// error, returned with the server's last stderr lines.
func (r *run) preflight(ctx context.Context, conn *target.Conn) (record.Preflight, error) {
	pre := record.Preflight{Valid: true}
	for i, p := range r.cfg.Suite.Preflight {
		var (
			chk    record.PreflightCheck
			res    preflightResult
			failed string
			err    error
		)
		if len(p.Command) > 0 {
			chk, res, failed = r.preflightCommand(ctx, p)
		} else {
			chk, res, failed, err = r.preflightTool(ctx, conn, p)
		}
		if err != nil {
			closeFor(conn) // so that its stderr is complete
			return pre, conn.WithStderr(err)
		}
		problems := []string{failed}
		if failed == "" {
			chk.Result = res.recorded()
			problems = append(checkValues(res.value(), p.Expect), grade.CheckText(r.cfg.Suite, p.TextCheck, res.text)...)
		}
		for _, pr := range problems {
			if pr != "" {
				chk.Problems = append(chk.Problems, fmt.Sprintf("check %d (line %d): %s", i+1, p.Line, pr))
			}
		}
		if len(chk.Problems) > 0 {
			pre.Valid = false
		}
		pre.Checks = append(pre.Checks, chk)
	}
	return pre, nil
}

// preflightResult is what a preflight call returned: its text (a tool's
// text content, a command's stdout) and its structured content, if any.
type preflightResult struct {
	text       string
	structured any
}

// value is what a dotted path leads into: the structured content, else
// the text read as JSON, else the text.
func (p preflightResult) value() any {
	if p.structured != nil {
		return p.structured
	}
	var v any
	if json.Unmarshal([]byte(p.text), &v) == nil {
		return v
	}
	return p.text
}

// recorded is the result as the record keeps it: the structured content,
// else the text as a JSON string.
func (p preflightResult) recorded() json.RawMessage {
	v := p.structured
	if v == nil {
		v = p.text
	}
	b, _ := json.Marshal(v)
	return b
}

// preflightTool calls check p's tool. failed says why the call did not
// give a result to check (the tool answered with an error); err is set
// when the server failed.
func (r *run) preflightTool(ctx context.Context, conn *target.Conn, p suite.PreflightCheck) (record.PreflightCheck, preflightResult, string, error) {
	args := p.Args
	if args == nil {
		args = map[string]any{}
	}
	rawArgs, _ := json.Marshal(args)
	chk := record.PreflightCheck{Tool: p.Tool, Args: rawArgs}
	cctx, cancel := context.WithTimeout(ctx, r.cfg.CallTimeout)
	defer cancel()
	tool, targs := r.cfg.Surface.Forward(p.Tool, args) // a canonical tool, on the run's surface
	out, err := conn.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: targs})
	if err != nil {
		return chk, preflightResult{}, "", fmt.Errorf("preflight: calling %s (the server failed; this is not a drift of its data): %w", p.Tool, err)
	}
	var texts []string
	for _, c := range out.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	res := preflightResult{text: strings.Join(texts, "\n")}
	if out.StructuredContent != nil {
		b, _ := json.Marshal(out.StructuredContent)
		json.Unmarshal(b, &res.structured)
	}
	if out.IsError {
		return chk, res, fmt.Sprintf("%s answered with an error: %s", p.Tool, quoteText(res.text)), nil
	}
	return chk, res, "", nil
}

// preflightCommand runs check p's command in the suite's directory, its
// stdout the result. failed says why it gave no result to check.
func (r *run) preflightCommand(ctx context.Context, p suite.PreflightCheck) (record.PreflightCheck, preflightResult, string) {
	args, _ := json.Marshal(p.Command)
	chk := record.PreflightCheck{Tool: p.What(), Args: args}
	cctx, cancel := context.WithTimeout(ctx, r.cfg.CallTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, p.Command[0], p.Command[1:]...)
	cmd.Dir = r.cfg.Suite.Dir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		out := stderr.String()
		if strings.TrimSpace(out) == "" {
			out = stdout.String()
		}
		return chk, preflightResult{}, fmt.Sprintf("the command failed (%v): %s", err, quoteText(out))
	}
	return chk, preflightResult{text: stdout.String()}, ""
}

// checkValues checks the dotted paths of expect in v, as CheckExpect
// does; on a text that is not JSON it says why no path leads anywhere.
func checkValues(v any, expect map[string]any) []string {
	problems := CheckExpect(v, expect)
	if _, text := v.(string); text {
		for i, pr := range problems {
			if strings.HasSuffix(pr, ": not in the result") {
				problems[i] = pr + ": the result is text, not JSON, so only the empty path leads into it (check its text with contains, matches or figures)"
			}
		}
	}
	return problems
}

// quoteText quotes the start of a text on one line, escaped so that it is
// safe on a terminal.
func quoteText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "no output"
	}
	if len(s) > 120 {
		n := 120
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return strconv.Quote(s)
}

// CheckExpect checks that each dotted path of expect leads to the expected
// value in v; numbers are equal within a millionth.
func CheckExpect(v any, expect map[string]any) []string {
	var problems []string
	paths := slices.Sorted(maps.Keys(expect))
	for _, path := range paths {
		want := expect[path]
		got, ok := lookup(v, path)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: not in the result", path))
			continue
		}
		if !equalValue(got, want) {
			problems = append(problems, fmt.Sprintf("%s: expected %s, found %s", path, show(want), show(got)))
		}
	}
	return problems
}

// lookup resolves a preflight path; it must lead to exactly one value.
func lookup(v any, path string) (any, bool) {
	got := suite.Lookup(v, path)
	if len(got) != 1 {
		return nil, false
	}
	return got[0], true
}

func equalValue(got, want any) bool {
	gf, gok := toFloat(got)
	wf, wok := toFloat(want)
	if gok && wok {
		return math.Abs(gf-wf) <= 1e-6*math.Max(1, math.Abs(wf))
	}
	return fmt.Sprint(got) == fmt.Sprint(want)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// show writes a value as a person reads it: numbers in full, never in
// exponent form (2394755, not 2.394755e+06).
func show(v any) string {
	if f, ok := toFloat(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
