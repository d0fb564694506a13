package suite

import (
	"fmt"
	"math"
	"regexp"

	"go.yaml.in/yaml/v4"
)

// TextCheck checks the text of a result, for servers whose results are
// text only: what it must contain, a pattern it must match and figures it
// must state. Preflight and verify checks carry one beside their expect.
type TextCheck struct {
	// Contains are texts that must each appear in the result's text, as
	// written (case and spacing count). A verify check's may name
	// {{token}} and {{fact.NAME}}.
	Contains Texts `yaml:"contains,omitempty"`
	// Matches is a regular expression (Go RE2 syntax) the result's text
	// must match somewhere; it is compiled when the suite is loaded and
	// is not a template.
	Matches string `yaml:"matches,omitempty"`
	// Figures are figures the result's text must state, read as answers
	// are read (under the suite's numbers: setting): some figure of the
	// text fits each one's kind and currency and is within its tolerance.
	Figures []Figure `yaml:"figures,omitempty"`

	re *regexp.Regexp // Matches, compiled when loaded
}

// Checks reports whether the text check checks anything.
func (t TextCheck) Checks() bool {
	return len(t.Contains) > 0 || t.Matches != "" || len(t.Figures) > 0
}

// Pattern returns Matches compiled (nil when there is none). A pattern
// that does not compile is refused when the suite is loaded; one set
// since, which does not, is returned as nil with the error.
func (t TextCheck) Pattern() (*regexp.Regexp, error) {
	switch {
	case t.re != nil:
		return t.re, nil
	case t.Matches == "":
		return nil, nil
	}
	return regexp.Compile(t.Matches)
}

// compile compiles Matches and checks the figures, reporting each problem
// with at.
func (t *TextCheck) compile(at func(format string, args ...any)) {
	if t.Matches != "" {
		re, err := regexp.Compile(t.Matches)
		if err != nil {
			at("matches %q is not a regular expression (Go RE2 syntax): %v", t.Matches, err)
		}
		t.re = re
	}
	for i, f := range t.Figures {
		if math.IsInf(f.Value, 0) || math.IsNaN(f.Value) {
			at("figure %d: value %v: want a finite number", i+1, f.Value)
		}
		switch f.Kind {
		case "", Money, Percent, Count:
		default:
			at("figure %d: kind %q: want money, percent or count", i+1, f.Kind)
		}
		if f.Kind == Count && f.Tolerance.Set && (f.Tolerance.Relative != 0 || f.Tolerance.Absolute != 0) {
			at("figure %d: a count is compared exactly and takes no tolerance", i+1)
		}
	}
	for i, c := range t.Contains {
		if c == "" {
			at("contains %d is empty: want the text the result must contain", i+1)
		}
	}
}

// Texts is one text or a list of them.
type Texts []string

// UnmarshalYAML reads a text or a list of texts.
func (t *Texts) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*t = Texts{n.Value}
		return nil
	}
	var l []string
	if err := n.Load(&l); err != nil {
		return fmt.Errorf("contains: want a text or a list of texts: %w", err)
	}
	*t = l
	return nil
}
