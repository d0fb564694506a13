package suite

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// DefaultSliceTools is the cap of a slice that sets none.
const DefaultSliceTools = 128

// Slice shows each attempt part of a catalog too large to send whole:
// the tools its case names (key calls, required, accepted, forbidden,
// expect_tools, action steps, tool_choice), every tool of the domains
// those tools belong to or the case lists in tools.domains, and then
// distractors drawn from the rest of what the case may be shown, in an
// order fixed by the seed and the case's id, up to MaxTools. Every attempt
// of a case is shown the same slice; another seed draws other distractors.
// What a slice measures is choice within it, not across the catalog.
type Slice struct {
	// MaxTools is the most tools an attempt is shown (DefaultSliceTools
	// when zero).
	MaxTools int `yaml:"max_tools,omitempty"`
	// Seed fixes which distractors each case is shown.
	Seed int64 `yaml:"seed,omitempty"`
	// Domains maps a domain's name to the tools that belong to it, each a
	// name or a pattern with * ("container_*").
	Domains map[string][]string `yaml:"domains,omitempty"`
}

// Cap returns the most tools an attempt is shown.
func (sl *Slice) Cap() int {
	if sl.MaxTools > 0 {
		return sl.MaxTools
	}
	return DefaultSliceTools
}

// SliceNamed returns the tools case c names, which its slice always
// holds, in the order named.
func SliceNamed(c *Case) []string {
	var names []string
	add := func(ns ...string) {
		for _, n := range ns {
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, r := range caseToolRefs(c) {
		add(r.name)
	}
	add(c.Tools.Forbidden...)
	if c.ToolChoice != nil && c.ToolChoice.Mode == ChoiceTool {
		add(c.ToolChoice.Tool)
	}
	return names
}

// SliceFor returns the tools case c is shown under the suite's slice,
// given avail, the tools its tools filters let it see, in the target's
// order; the result keeps that order. Without a slice it returns avail.
// The same seed, case and tools always give the same slice. It fails when
// the named tools and their domains alone exceed the cap.
func (s *Suite) SliceFor(c *Case, avail []string) ([]string, error) {
	sl := s.Slice
	if sl == nil || len(avail) <= sl.Cap() {
		return avail, nil
	}
	in := map[string]bool{}
	have := map[string]bool{}
	for _, n := range avail {
		have[n] = true
	}
	named := 0
	for _, n := range SliceNamed(c) {
		if have[n] && !in[n] {
			in[n] = true
			named++
		}
	}
	for _, d := range slices.Sorted(maps.Keys(sl.Domains)) {
		pats := sl.Domains[d]
		wanted := slices.Contains(c.Tools.Domains, d)
		for n := range in {
			wanted = wanted || matchAny(pats, n)
		}
		if !wanted {
			continue
		}
		for _, n := range avail {
			if matchAny(pats, n) {
				in[n] = true
			}
		}
	}
	if len(in) > sl.Cap() {
		return nil, fmt.Errorf("case %s: its slice needs %d tools (%d it names, %d more of their domains), more than slice.max_tools %d", c.ID, len(in), named, len(in)-named, sl.Cap())
	}
	var rest []string
	for _, n := range avail {
		if !in[n] {
			rest = append(rest, n)
		}
	}
	rank := func(n string) uint64 {
		h := sha256.New()
		fmt.Fprintf(h, "%d\x00%s\x00%s", sl.Seed, c.ID, n)
		return binary.BigEndian.Uint64(h.Sum(nil))
	}
	ranks := make(map[string]uint64, len(rest))
	for _, n := range rest {
		ranks[n] = rank(n)
	}
	sort.SliceStable(rest, func(i, j int) bool {
		if ranks[rest[i]] != ranks[rest[j]] {
			return ranks[rest[i]] < ranks[rest[j]]
		}
		return rest[i] < rest[j]
	})
	for _, n := range rest[:min(len(rest), sl.Cap()-len(in))] {
		in[n] = true
	}
	out := make([]string, 0, len(in))
	for _, n := range avail {
		if in[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// CheckSliceDomains reports domain patterns of the suite's slice that
// match none of known, the tools the target lists.
func (s *Suite) CheckSliceDomains(known []string) error {
	if s.Slice == nil {
		return nil
	}
	var errs Errors
	for _, d := range slices.Sorted(maps.Keys(s.Slice.Domains)) {
		for _, p := range s.Slice.Domains[d] {
			if !anyMatches(p, known) {
				errs = append(errs, &Error{File: s.Path, Msg: fmt.Sprintf("slice.domains.%s: %q matches no tool of the target", d, p)})
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// checkSlice checks the suite's slice settings, in the settings file
// (data): a positive cap, domains with names and patterns.
func (l *loader) checkSlice(s *Suite, file string, data []byte) {
	sl := s.Slice
	if sl == nil {
		return
	}
	line := max(topLineOf(data, "slice"), 1)
	if sl.MaxTools < 0 {
		l.errorf(file, line, 0, "slice.max_tools is %d: want a positive number (leave it out for %d)", sl.MaxTools, DefaultSliceTools)
	}
	for _, d := range slices.Sorted(maps.Keys(sl.Domains)) {
		if strings.TrimSpace(d) == "" {
			l.errorf(file, line, 0, "slice.domains: a domain has no name")
		}
		if len(sl.Domains[d]) == 0 {
			l.errorf(file, line, 0, "slice.domains.%s lists no tool: want names or patterns such as container_*", d)
		}
		for i, p := range sl.Domains[d] {
			if strings.TrimSpace(p) == "" {
				l.errorf(file, line, 0, "slice.domains.%s %d is empty: want a tool name, * matching any characters", d, i+1)
			}
		}
	}
}

// checkCaseSlices checks each case's tools.domains against the suite's
// slice, and that the tools it names fit within the cap.
func (l *loader) checkCaseSlices(s *Suite) {
	for _, c := range s.Cases {
		at := func(format string, args ...any) {
			l.errorf(c.File, c.Line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
		}
		if len(c.Tools.Domains) > 0 && s.Slice == nil {
			at("tools.domains goes with the suite's slice: setting, which this suite has not")
			continue
		}
		if s.Slice == nil {
			continue
		}
		for _, d := range c.Tools.Domains {
			if _, ok := s.Slice.Domains[d]; !ok {
				at("tools.domains names %q, which the suite's slice.domains does not define (have %s)", d, strings.Join(slices.Sorted(maps.Keys(s.Slice.Domains)), ", "))
			}
		}
		if n := len(SliceNamed(c)); n > s.Slice.Cap() {
			at("names %d tools, more than slice.max_tools %d", n, s.Slice.Cap())
		}
	}
}
