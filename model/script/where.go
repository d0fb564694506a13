package script

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mcpeval/mcpeval/internal/textdist"
	"github.com/mcpeval/mcpeval/suite"
)

func setLine(lines map[string]int, id string, line int) map[string]int {
	if lines == nil {
		lines = map[string]int{}
	}
	if _, ok := lines[id]; !ok {
		lines[id] = line
	}
	return lines
}

// CheckCases reports every case id of the script that is not a case of
// suite su, located in the script and naming the nearest case id: a typo
// in an id would otherwise leave the case answered "I can't help with
// that." without a word. A nil su checks nothing.
func (s *Script) CheckCases(su *suite.Suite) error {
	if su == nil {
		return nil
	}
	var ids []string
	for id := range s.Cases {
		if su.Case(id) == nil {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return s.Lines[ids[i]] < s.Lines[ids[j]] })
	var errs []error
	for _, id := range ids {
		msg := fmt.Sprintf("%s:%d: case %q is not in suite %s", s.Path, s.Lines[id], id, su.Name)
		if near := nearestCase(su, id); near != "" {
			msg += fmt.Sprintf(" (nearest: %s)", near)
		}
		errs = append(errs, errors.New(msg))
	}
	return errors.Join(errs...)
}

// nearestCase returns the case id of su nearest to id by edit distance,
// the first in suite order on a tie, or "" for a suite with no cases.
func nearestCase(su *suite.Suite, id string) string {
	best, dist := "", -1
	for _, c := range su.Cases {
		if d := textdist.Distance(id, c.ID); dist < 0 || d < dist {
			best, dist = c.ID, d
		}
	}
	return best
}
