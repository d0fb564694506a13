package suite

import (
	"fmt"
	"regexp"
	"strings"
)

// Replay holds the suite's settings for mcpeval replay: what of a tool's
// result may differ between the recorded run and the replay without
// counting as a difference.
type Replay struct {
	// Ignore lists the volatile parts of a result. Each rule is either a
	// path into the result's JSON, "$." then keys separated by dots ("*"
	// is any key or any element, a number an element of an array), whose
	// value is left out of both sides; or "regex:" then a Go regular
	// expression whose every match, in the text and in every string of
	// the structured content, is replaced by "<ignored>" on both sides.
	Ignore []string `yaml:"ignore,omitempty"`
}

// ReplayRule is one compiled entry of Replay.Ignore: Path or Regexp is
// set.
type ReplayRule struct {
	// Path is the rule's path as keys, "$." left off.
	Path []string
	// Regexp is the rule's regular expression.
	Regexp *regexp.Regexp
}

// ParseReplayRule reads one entry of Replay.Ignore.
func ParseReplayRule(s string) (ReplayRule, error) {
	switch {
	case strings.HasPrefix(s, "regex:"):
		re, err := regexp.Compile(strings.TrimPrefix(s, "regex:"))
		if err != nil {
			return ReplayRule{}, fmt.Errorf("ignore %q: %v", s, err)
		}
		if re.MatchString("") {
			return ReplayRule{}, fmt.Errorf("ignore %q: the pattern matches the empty string, so it would ignore nothing in particular", s)
		}
		return ReplayRule{Regexp: re}, nil
	case strings.HasPrefix(s, "$."):
		keys := strings.Split(strings.TrimPrefix(s, "$."), ".")
		for _, k := range keys {
			if k == "" {
				return ReplayRule{}, fmt.Errorf("ignore %q: an empty key: want a path such as $.generated_at or $.items.*.id", s)
			}
		}
		return ReplayRule{Path: keys}, nil
	}
	return ReplayRule{}, fmt.Errorf("ignore %q: want a path such as $.generated_at, or regex: then a pattern", s)
}

// ReplayRules compiles the suite's replay ignore rules; nil when it has
// none. Load has checked them.
func (s *Suite) ReplayRules() ([]ReplayRule, error) {
	if s.Replay == nil {
		return nil, nil
	}
	var rules []ReplayRule
	for _, r := range s.Replay.Ignore {
		rule, err := ParseReplayRule(r)
		if err != nil {
			return nil, fmt.Errorf("suite %s: replay: %w", s.Name, err)
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// checkReplay checks the replay: settings, each rule at its line.
func (l *loader) checkReplay(s *Suite, file string, data []byte) {
	if s.Replay == nil {
		return
	}
	n := nodeAt(rootNode(data), "replay", "ignore")
	for i, r := range s.Replay.Ignore {
		if _, err := ParseReplayRule(r); err != nil {
			line, col := lineOf(data, "replay:"), 0
			if n != nil && i < len(n.Content) {
				line, col = n.Content[i].Line, n.Content[i].Column
			}
			l.errorf(file, line, col, "replay: %v", err)
		}
	}
}
