package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
)

// Run is one graded run to write.
type Run struct {
	Record *record.Run
	Result *grade.Result
	// Durations are the attempts' wall time summed per case, for a Record
	// read as a stream (record.Open), which holds no attempts; when nil
	// they are summed from Record.Attempts.
	Durations map[string]time.Duration
}

// tally is the counts JUnit puts on both <testsuites> and <testsuite>,
// as attributes (encoding/xml writes an embedded struct's fields as the
// outer element's own).
type tally struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
}

type testsuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	tally
	Suites []testsuite `xml:"testsuite"`
}

type testsuite struct {
	Name string `xml:"name,attr"`
	tally
	Timestamp  string     `xml:"timestamp,attr,omitempty"`
	Properties []property `xml:"properties>property"`
	Cases      []testcase `xml:"testcase"`
}

type properties struct {
	Property []property `xml:"property"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type testcase struct {
	Name       string      `xml:"name,attr"`
	Classname  string      `xml:"classname,attr"`
	Time       string      `xml:"time,attr"`
	Properties *properties `xml:"properties"`
	Failure    *result     `xml:"failure"`
	Error      *result     `xml:"error"`
	Skipped    *skipped    `xml:"skipped"`
}

type result struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type skipped struct {
	Message string `xml:"message,attr"`
}

// Write writes runs as one JUnit XML document.
func Write(w io.Writer, runs ...Run) error {
	doc := testsuites{Name: "mcpeval"}
	var total time.Duration
	for _, r := range runs {
		s, d := testSuite(r)
		doc.Suites = append(doc.Suites, s)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		total += d
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// suiteProperties are a run's provenance and totals, as a test suite's
// properties.
func suiteProperties(r Run) []property {
	h, res := &r.Record.Header, r.Result
	var props []property
	add := func(n, v string) {
		if v != "" {
			props = append(props, property{n, v})
		}
	}
	t := res.Totals
	add("run_id", h.RunID)
	add("model", res.Model)
	add("suite", h.Suite.Name)
	add("suite_hash", h.Suite.Hash)
	add("tools_hash", h.ToolsHash)
	if h.Overlay != nil {
		add("overlay", h.Overlay.Path)
		add("overlay_hash", h.Overlay.Hash)
		add("server_tools_hash", h.ServerToolsHash)
	}
	add("dataset", h.Dataset)
	if h.Shard != nil {
		add("shard", fmt.Sprintf("%d/%d", h.Shard.K, h.Shard.N))
	}
	add("target", h.Target.Spec)
	add("record", r.Record.Dir)
	add("valid", strconv.FormatBool(res.Valid))
	if res.Valid {
		add("passed", fmt.Sprintf("%d/%d", t.Passed, t.Graded))
		add("attempt_errors", strconv.Itoa(t.Errors))
		add("pass_rate", rate(t.Rate))
		add("pass_rate_95ci", "["+rate(t.WilsonLow)+", "+rate(t.WilsonHigh)+"]")
	}
	return append(props, actionProperties(res)...)
}

// caseDurations is the wall time of each case's attempts: r.Durations,
// or added up from the record.
func caseDurations(r Run) map[string]time.Duration {
	if r.Durations != nil {
		return r.Durations
	}
	dur := map[string]time.Duration{}
	for _, a := range r.Record.Attempts {
		dur[a.Case] += time.Duration(a.DurationMS) * time.Millisecond
	}
	return dur
}

// caseOrder lists the cases in plan order, then any graded case the plan
// does not list.
func caseOrder(h *record.Header, res *grade.Result) []string {
	var order []string
	seen := map[string]bool{}
	for _, p := range h.Planned {
		if !seen[p.Case] {
			seen[p.Case] = true
			order = append(order, p.Case)
		}
	}
	for _, c := range res.Cases {
		if !seen[c.ID] {
			seen[c.ID] = true
			order = append(order, c.ID)
		}
	}
	return order
}

func testSuite(r Run) (testsuite, time.Duration) {
	h, res := &r.Record.Header, r.Result
	name := h.Suite.Name
	if res.Model != "" {
		name += " (" + res.Model + ")"
	}
	s := testsuite{Name: name}
	if !h.Start.IsZero() {
		s.Timestamp = h.Start.UTC().Format("2006-01-02T15:04:05")
	}
	s.Properties = suiteProperties(r)
	dur := caseDurations(r)
	attempts := map[string][]grade.AttemptGrade{}
	for _, a := range res.Attempts {
		attempts[a.Case] = append(attempts[a.Case], a)
	}
	stats := map[string]grade.CaseStats{}
	for _, c := range res.Cases {
		stats[c.ID] = c
	}
	order := caseOrder(h, res)
	var total time.Duration
	if !res.Valid {
		s.Cases = append(s.Cases, testcase{Name: "preflight", Classname: classname(h.Suite.Name, ""), Time: seconds(0),
			Error: &result{Message: "invalid run: " + oneLine(res.Invalid), Type: "invalid", Text: termsafe.String(res.Invalid)}})
		s.Errors++
	}
	for _, id := range order {
		cs, graded := stats[id]
		group := cs.Group
		if group == "" {
			group, _, _ = strings.Cut(id, "/")
		}
		tc := testcase{Name: id, Classname: classname(h.Suite.Name, group), Time: seconds(dur[id])}
		total += dur[id]
		as := attempts[id]
		sort.SliceStable(as, func(i, j int) bool { return as[i].N < as[j].N })
		var props []property
		for _, a := range as {
			props = append(props, property{fmt.Sprintf("attempt.%d", a.N), verdict(a)})
		}
		switch {
		case !res.Valid:
			tc.Skipped = &skipped{Message: "not graded: the run is invalid (its preflight failed)"}
			s.Skipped++
		case !graded || len(as) == 0:
			why := "not run: the run stopped before this case was attempted"
			if r.Record.End != nil && r.Record.End.Reason != "" {
				why += " (" + r.Record.End.Reason + ")"
			}
			tc.Skipped = &skipped{Message: why}
			s.Skipped++
		default:
			props = append(props,
				property{"passed", fmt.Sprintf("%d/%d", cs.Passed, cs.Graded)},
				property{"attempt_errors", strconv.Itoa(cs.Errors)},
				property{"pass_rate", rate(cs.Rate)},
				property{"inconsistent", strconv.FormatBool(cs.Inconsistent)})
			switch {
			case cs.Failed > 0:
				msg := fmt.Sprintf("%d of %d graded attempts failed", cs.Failed, cs.Graded)
				if cs.Inconsistent {
					msg += fmt.Sprintf(" (inconsistent: %d passed)", cs.Passed)
				}
				if first := firstReason(as, grade.Fail); first != "" {
					msg += ": " + first
				}
				tc.Failure = &result{Message: oneLine(msg), Type: "fail", Text: details(as)}
				s.Failures++
			case cs.Graded == 0:
				kinds := map[string]int{}
				for _, a := range as {
					kinds[a.ErrorKind]++
				}
				msg := fmt.Sprintf("all %d attempts ended in an error (%s): they say nothing about the model", len(as), kindList(kinds))
				if first := firstReason(as, grade.Error); first != "" {
					msg += ": " + first
				}
				tc.Error = &result{Message: oneLine(msg), Type: mostKind(kinds), Text: details(as)}
				s.Errors++
			}
		}
		if len(props) > 0 {
			tc.Properties = &properties{props}
		}
		s.Cases = append(s.Cases, tc)
	}
	s.Tests = len(s.Cases)
	s.Time = seconds(total)
	return s, total
}

func classname(suite, group string) string {
	if group == "" {
		return suite
	}
	return suite + "." + group
}

func verdict(a grade.AttemptGrade) string {
	switch a.Outcome {
	case grade.Pass:
		return "pass"
	case grade.Error:
		return oneLine(reasons(a))
	default:
		return "fail: " + oneLine(reasons(a))
	}
}

func reasons(a grade.AttemptGrade) string {
	parts := make([]string, len(a.Reasons))
	for i, r := range a.Reasons {
		parts[i] = r.String()
	}
	return strings.Join(parts, "; ")
}

func firstReason(as []grade.AttemptGrade, o grade.Outcome) string {
	for _, a := range as {
		if a.Outcome == o && len(a.Reasons) > 0 {
			return a.Reasons[0].String()
		}
	}
	return ""
}

// details lists every attempt that did not pass with its reasons.
func details(as []grade.AttemptGrade) string {
	var b strings.Builder
	for _, a := range as {
		if a.Outcome == grade.Pass {
			continue
		}
		fmt.Fprintf(&b, "attempt %d: %s\n", a.N, a.Outcome)
		for _, r := range a.Reasons {
			fmt.Fprintf(&b, "  %s\n", r.String())
		}
	}
	return termsafe.String(b.String())
}

func kindList(kinds map[string]int) string {
	names := slices.Sorted(maps.Keys(kinds))
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %d", k, kinds[k])
	}
	return strings.Join(parts, ", ")
}

func mostKind(kinds map[string]int) string {
	best, n := "", -1
	for k, v := range kinds {
		if v > n || v == n && k < best {
			best, n = k, v
		}
	}
	return best
}

// oneLine makes model- or tool-originated text one readable line: control
// characters shown as escapes, runs of space folded, at most 500 runes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(termsafe.String(s)), " ")
	if r := []rune(s); len(r) > 500 {
		s = string(r[:499]) + "…"
	}
	return s
}

// actionProperties are the action columns of a valid run with action
// cases, over all its models: action_scored, then action_KEY as scored of
// counted ("18/20") for each column.
func actionProperties(res *grade.Result) []property {
	if !res.Valid || res.Actions == nil || len(res.Actions.Models) == 0 {
		return nil
	}
	var cols actions.Columns
	scored := 0
	for _, m := range res.Actions.Models {
		cols.Add(m.Columns)
		scored += m.Scored
	}
	props := []property{{"action_scored", strconv.Itoa(scored)}}
	for i, c := range cols.List() {
		props = append(props, property{"action_" + actions.ColumnKeys[i], c.String()})
	}
	return props
}

func rate(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
