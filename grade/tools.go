package grade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkTools checks tool choice: write tools and tools the run did not
// show, then the case's required, accepted and forbidden tools.
//
// A required or accepted tool counts as used only by a call that reached
// the tool and succeeded: a rejected call or one the tool refused gave the
// model no data. A forbidden tool counts as called by any call at all.
func checkTools(c *suite.Case, h *record.Header, calls []record.Call) []Reason {
	var rs []Reason
	shown := map[string]*record.Tool{}
	for i := range h.Tools {
		shown[h.Tools[i].Name] = &h.Tools[i]
	}
	var order []string
	unshown := map[string]int{}
	writes := map[string]int{}
	for _, call := range calls {
		t := shown[call.Name]
		switch {
		case !call.Shown || len(h.Tools) > 0 && t == nil:
			if unshown[call.Name] == 0 && writes[call.Name] == 0 {
				order = append(order, call.Name)
			}
			unshown[call.Name]++
		case t != nil && !t.ReadOnly:
			if unshown[call.Name] == 0 && writes[call.Name] == 0 {
				order = append(order, call.Name)
			}
			writes[call.Name]++
		}
	}
	for _, name := range order {
		if n := unshown[name]; n > 0 {
			rs = append(rs, Reason{CheckTools, fmt.Sprintf("called %s%s, a tool the run did not show the model: fails outright", name, times(n))})
		}
		if n := writes[name]; n > 0 {
			kind := "a write tool (not read-only)"
			if shown[name].Destructive {
				kind = "a destructive write tool"
			}
			rs = append(rs, Reason{CheckTools, fmt.Sprintf("called %s%s, %s: a write attempt fails outright", name, times(n), kind)})
		}
	}

	used := map[string]bool{}
	tried := map[string][]record.Call{}
	for _, call := range calls {
		tried[call.Name] = append(tried[call.Name], call)
		if call.Rejected == "" && !call.IsError {
			used[call.Name] = true
		}
	}
	for _, name := range c.Tools.Required {
		if !used[name] {
			rs = append(rs, Reason{CheckTools, fmt.Sprintf("required %s: %s; %s", name, notUsed(tried[name]), calledList(calls))})
		}
	}
	if len(c.Tools.Accepted) > 0 && !slices.ContainsFunc(c.Tools.Accepted, func(n string) bool { return used[n] }) {
		var why []string
		for _, n := range c.Tools.Accepted {
			if len(tried[n]) > 0 {
				why = append(why, n+" "+notUsed(tried[n]))
			}
		}
		msg := fmt.Sprintf("expected a call of %s; %s", orList(c.Tools.Accepted), calledList(calls))
		if len(why) > 0 {
			msg += " (" + strings.Join(why, "; ") + ")"
		}
		rs = append(rs, Reason{CheckTools, msg})
	}
	for _, name := range c.Tools.Forbidden {
		if n := len(tried[name]); n > 0 {
			rs = append(rs, Reason{CheckTools, fmt.Sprintf("called %s%s, which this case forbids", name, times(n))})
		}
	}
	return rs
}

// notUsed says why the calls of a tool did not count as using it.
func notUsed(calls []record.Call) string {
	if len(calls) == 0 {
		return "not called"
	}
	last := calls[len(calls)-1]
	why := "the tool returned an error"
	if last.Rejected != "" {
		why = "rejected: " + clip(last.Rejected, 120)
	} else if r := strings.TrimSpace(last.Result); r != "" {
		why = "error: " + clip(r, 120)
	}
	if len(calls) == 1 {
		return "its one call failed (" + why + ")"
	}
	return fmt.Sprintf("all %d calls failed (last %s)", len(calls), why)
}

// calledList names the tools an attempt called, in first-call order.
func calledList(calls []record.Call) string {
	if len(calls) == 0 {
		return "no tool was called"
	}
	var names []string
	count := map[string]int{}
	for _, c := range calls {
		if count[c.Name] == 0 {
			names = append(names, c.Name)
		}
		count[c.Name]++
	}
	for i, n := range names {
		names[i] = n + times(count[n])
	}
	return "called " + strings.Join(names, ", ")
}

func times(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (%d calls)", n)
}

func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return "any of " + strings.Join(names, ", ")
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
