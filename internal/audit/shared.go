package audit

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/suite"
)

// defaultConcurrency is how many attempts a run makes at once when
// neither --concurrency nor the suite says.
const defaultConcurrency = 4

// SharedStateWarnings says, before a run, which action cases build
// fixtures every attempt shares while attempts run at once: a fixture
// whose call, or whose teardown, names neither the attempt's {{token}}
// nor a fact of one that does builds or rebuilds the same state for
// every attempt, so overlapping attempts break each other's fixtures.
// concurrency is the run's (0: the default, 4); the suite's serial or
// concurrency bound lowers it. It is conservative: a command that finds
// the token in MCPEVAL_TOKEN alone counts as shared.
func SharedStateWarnings(s *suite.Suite, concurrency int) []string {
	if concurrency <= 0 {
		concurrency = defaultConcurrency
	}
	if b := s.ConcurrencyBound(); b > 0 {
		concurrency = min(concurrency, b)
	}
	if concurrency <= 1 {
		return nil
	}
	var ids []string
	var first *suite.Case
	for _, c := range s.Cases {
		if c.Action == nil || !sharesState(c.Action) {
			continue
		}
		if first == nil {
			first = c
		}
		ids = append(ids, c.ID)
	}
	if first == nil {
		return nil
	}
	return []string{fmt.Sprintf("%s:%d: action case%s %s build%s or tear%s down fixtures that name no {{token}}, so every attempt works on the same state, "+
		"and the run makes up to %d attempts at once, which can break each other's fixtures: set serial: true (or concurrency: 1) in the suite, or name the attempt's {{token}} in what each fixture builds",
		first.File, first.Line, plural(len(ids)), strings.Join(ids, ", "), verbS(len(ids)), verbS(len(ids)), concurrency)}
}

// sharesState reports whether an action case builds or tears down a
// fixture that is not the attempt's own.
func sharesState(a *suite.Action) bool {
	for _, fx := range a.Fixtures {
		if !perAttempt(fx.Call) || (fx.Teardown != nil && !perAttempt(*fx.Teardown)) {
			return true
		}
	}
	return false
}

// perAttempt reports whether a call names the attempt's token, or a fact
// (which a fixture built for the attempt), in its command or arguments.
func perAttempt(c suite.Call) bool {
	for _, a := range c.Command {
		if namesAttempt(a) {
			return true
		}
	}
	return anyString(c.Args, namesAttempt)
}

func namesAttempt(s string) bool {
	return strings.Contains(s, "{{token}}") || strings.Contains(s, "{{fact.")
}

// anyString reports whether a string anywhere in v satisfies ok.
func anyString(v any, ok func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return ok(v)
	case map[string]any:
		for _, x := range v {
			if anyString(x, ok) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if anyString(x, ok) {
				return true
			}
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// verbS is a verb's -s for a subject of n things.
func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}
