package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// preflight calls each of the suite's preflight tools once and checks the
// figures they return. Any mismatch makes the run invalid. A call that
// fails outright (the server crashed, hung or broke the protocol) is not
// a drift of the data but an error, returned with the server's last
// stderr lines.
func (r *run) preflight(ctx context.Context, conn *target.Conn) (record.Preflight, error) {
	pre := record.Preflight{Valid: true}
	for _, p := range r.cfg.Suite.Preflight {
		args := p.Args
		if args == nil {
			args = map[string]any{}
		}
		rawArgs, _ := json.Marshal(args)
		chk := record.PreflightCheck{Tool: p.Tool, Args: rawArgs}
		cctx, cancel := context.WithTimeout(ctx, r.cfg.CallTimeout)
		tool, targs := r.cfg.Surface.Forward(p.Tool, args) // a canonical tool, on the run's surface
		out, err := conn.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: targs})
		cancel()
		switch {
		case err != nil:
			closeFor(conn) // so that its stderr is complete
			return pre, conn.WithStderr(fmt.Errorf("preflight: calling %s (the server failed; this is not a drift of its data): %w", p.Tool, err))
		case out.IsError:
			chk.Problems = append(chk.Problems, fmt.Sprintf("%s answered with an error", p.Tool))
		case out.StructuredContent == nil:
			chk.Problems = append(chk.Problems, fmt.Sprintf("%s returned no structured content to check", p.Tool))
		default:
			b, _ := json.Marshal(out.StructuredContent)
			chk.Result = b
			var v any
			json.Unmarshal(b, &v)
			chk.Problems = CheckExpect(v, p.Expect)
		}
		if len(chk.Problems) > 0 {
			pre.Valid = false
		}
		pre.Checks = append(pre.Checks, chk)
	}
	return pre, nil
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
