package grade

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestDocAnswers grades every ```answer block of docs/suite.md against the
// case example (a ```yaml block that starts "# fragment: case", or a whole
// suite, whose first case it takes) above it:
// "```answer pass" must pass, and "```answer fail: TEXT" must fail with a
// reason holding TEXT. So each rule the page states is checked on the
// examples it shows.
func TestDocAnswers(t *testing.T) {
	const doc = "../docs/suite.md"
	f, err := os.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		c       *suite.Case
		s       *suite.Suite
		fence   string // the open block's info string, "" outside one
		start   int
		body    []string
		answers int
	)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		switch {
		case fence == "" && strings.HasPrefix(l, "```") && len(l) > 3:
			fence, start, body = strings.TrimPrefix(l, "```"), line, nil
		case fence != "" && l == "```":
			text := strings.Join(body, "\n")
			switch {
			case fence == "yaml" && strings.HasPrefix(text, "# fragment: case\n"):
				s, c = docCase(t, doc, start, text)
			case fence == "yaml" && !strings.HasPrefix(text, "# fragment") && strings.Contains(text, "\ncases:"):
				s, c = docSuite(t, doc, start, text)
			case strings.HasPrefix(fence, "answer"):
				answers++
				gradeDocAnswer(t, doc, start, fence, s, c, text)
			}
			fence = ""
		case fence != "":
			body = append(body, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if answers < 8 {
		t.Fatalf("%s has %d answer examples: want at least 8", doc, answers)
	}
}

// docCase loads a case example the way the suite's documentation test does:
// as the only case of a suite.
func docCase(t *testing.T, doc string, line int, text string) (*suite.Suite, *suite.Case) {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: example\nallow_writes: true\ncases:\n")
	first := true
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "":
		case first && !strings.HasPrefix(strings.TrimSpace(l), "#"):
			b.WriteString("  - " + l + "\n")
			first = false
		default:
			b.WriteString("    " + l + "\n")
		}
	}
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(b.String())}}, ".", "example")
	if err != nil {
		t.Errorf("%s:%d: the case does not load: %v", doc, line, err)
		return nil, nil
	}
	return s, s.Cases[0]
}

// docSuite loads a whole suite example and takes its first case.
func docSuite(t *testing.T, doc string, line int, text string) (*suite.Suite, *suite.Case) {
	t.Helper()
	if strings.HasPrefix(text, "cases_from:") || strings.Contains(text, "\ncases_from:") {
		// Its data files are blocks further down the page: suite's
		// TestDocCaseData loads it with them; no answer is graded on it.
		return nil, nil
	}
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, ".", "example")
	if err != nil || len(s.Cases) == 0 {
		t.Errorf("%s:%d: the suite does not load: %v", doc, line, err)
		return nil, nil
	}
	return s, s.Cases[0]
}

func gradeDocAnswer(t *testing.T, doc string, line int, fence string, s *suite.Suite, c *suite.Case, answer string) {
	t.Helper()
	at := doc + ":" + strconv.Itoa(line)
	if c == nil {
		t.Errorf("%s: an answer example with no case example above it", at)
		return
	}
	a := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt, End: record.EndAnswered, Answer: answer,
		Turns: []record.Turn{{Text: answer}}}
	g := Attempt(s, c, &record.Header{Preflight: record.Preflight{Valid: true}}, a)
	verdict, want, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(fence, "answer")), ":")
	want = strings.TrimSpace(want)
	switch verdict {
	case "pass":
		if g.Outcome != Pass {
			t.Errorf("%s: %s: want pass, got %s:%s", at, c.ID, g.Outcome, reasonsText(g.Reasons))
		}
	case "fail":
		if g.Outcome != Fail || !strings.Contains(reasonsText(g.Reasons), want) {
			t.Errorf("%s: %s: want a fail saying %q, got %s:%s", at, c.ID, want, g.Outcome, reasonsText(g.Reasons))
		}
	default:
		t.Errorf("%s: ```%s: want \"answer pass\" or \"answer fail: TEXT\"", at, fence)
	}
}
