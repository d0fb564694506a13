package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/record"
)

// MaxCandidates is the most candidate figures a promoted case lists.
const MaxCandidates = 20

// PromoteOptions say where a promoted attempt came from and what the new
// case is called.
type PromoteOptions struct {
	// ID is the new case's id (default: the attempt's case id with
	// "-promoted" added).
	ID string
	// RunID and Model name the run the attempt was recorded in, for the
	// file's header comment.
	RunID, Model string
}

// Promote drafts a file of cases (cases: [...]) holding one case made
// from attempt a: its prompt, the tools it called as tools.required and
// its calls as the key, the figures its tool results hold as commented
// candidate expectations, and verified: false, so that publish refuses
// the suite until a person has checked it. The text is YAML a person
// edits; every value from the record is written as a JSON scalar, which
// YAML reads as written.
func Promote(a *record.Attempt, o PromoteOptions) []byte {
	id := o.ID
	if id == "" {
		id = a.Case + "-promoted"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Drafted by mcpeval promote from attempt %s #%d of run %s (model %s).\n", oneLine(a.Case), a.N, oneLine(o.RunID), oneLine(o.Model))
	b.WriteString("# Nothing here has been checked: the key is what that model did, not what\n")
	b.WriteString("# is right. Check the prompt, the tools and each figure, keep the figures\n")
	b.WriteString("# the answer must state, then set verified: true.\n")
	b.WriteString("cases:\n")
	fmt.Fprintf(&b, "  - id: %s\n", scalar(id))
	fmt.Fprintf(&b, "    prompt: %s\n", scalar(a.Prompt))
	b.WriteString("    verified: false\n")
	calls := toolCalls(a)
	var names []string
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		b.WriteString("    # The attempt called no tool: say what its answer must hold.\n")
		b.WriteString("    no_invented_figures: true\n")
	} else {
		b.WriteString("    tools:\n")
		fmt.Fprintf(&b, "      required: [%s]\n", joinScalars(names))
		b.WriteString("    key:\n      calls:\n")
		for _, c := range calls {
			fmt.Fprintf(&b, "        - tool: %s\n", scalar(c.Name))
			if args := flowArgs(c.Args); args != "" {
				fmt.Fprintf(&b, "          args: %s\n", args)
			}
		}
	}
	if cands := candidates(calls); len(cands) > 0 {
		b.WriteString("    # Figures the tool results hold: uncomment those the answer must state.\n")
		b.WriteString("    # figures:\n")
		for _, c := range cands {
			fmt.Fprintf(&b, "    #   - {value: %s}  # %s: %s\n", strconv.FormatFloat(c.value, 'f', -1, 64), oneLine(c.tool), oneLine(c.text))
		}
	}
	return b.Bytes()
}

// toolCalls are the calls of a that reached a tool and were not refused.
func toolCalls(a *record.Attempt) []record.Call {
	var out []record.Call
	for _, t := range a.Turns {
		for _, c := range t.Calls {
			if c.IsError || c.Rejected != "" || c.NotSent {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

type candidate struct {
	value      float64
	tool, text string
}

// candidates are the figures the calls' results claim, each value once,
// in the order found, at most MaxCandidates.
func candidates(calls []record.Call) []candidate {
	var out []candidate
	seen := map[float64]bool{}
	for _, c := range calls {
		for _, f := range figures.Claims(c.Result) {
			if seen[f.Value] || math.IsInf(f.Value, 0) || math.IsNaN(f.Value) {
				continue
			}
			seen[f.Value] = true
			out = append(out, candidate{value: f.Value, tool: c.Name, text: f.Text})
			if len(out) == MaxCandidates {
				return out
			}
		}
	}
	return out
}

// scalar writes s as a YAML scalar: a JSON string, which YAML reads as
// the same string whatever it holds.
func scalar(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

func joinScalars(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = scalar(s)
	}
	return strings.Join(out, ", ")
}

// flowArgs writes a call's arguments as a YAML flow mapping (compact
// JSON); empty when there are none.
func flowArgs(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" || string(bytes.TrimSpace(raw)) == "{}" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return scalar(string(raw)) + "  # not JSON as recorded: fix by hand"
	}
	return b.String()
}

// oneLine keeps text from the record on the comment line it is written
// on.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}
