package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// streamJudged has a case the judge never reads, a decline case, a case
// graded by the judge against its rubric and a checked case the judge
// reads against its rubric beside the grade.
const streamJudged = `name: stream-judged
target: builtin:household
cases:
  - id: single/net-worth
    prompt: What's my net worth?
    tools: {required: [get_net_worth]}
  - id: decline/weather
    prompt: What's the weather like in Lisbon?
    decline: true
  - id: agent/plan
    prompt: Plan my week.
    judge: {rubric: Names each day., pass_when: Every day has an item.}
    graded_by: judge
  - id: single/accounts
    prompt: Which accounts do I have?
    tools: {required: [list_accounts]}
    judge: {rubric: Names the accounts., pass_when: Every account is named.}
`

// readingJudge is a judge model whose verdict and usage follow what it is
// sent: an answer saying "can't" declines, one naming Monday passes its
// rubric, and every ask costs as many input tokens as its message has
// bytes. A judge asked about other attempts, or sent other words, rules
// otherwise.
type readingJudge struct{}

func (readingJudge) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	msg := req.Messages[0].TextOf()
	var reply string
	switch req.System {
	case judge.Rubric:
		reply = "ANSWERS\nit answers"
		if strings.Contains(msg, "can't") {
			reply = "DECLINES\nit says it can't"
		}
	case judge.RubricPrompt:
		reply = `{"verdict": "fail", "reason": "no Monday"}`
		if strings.Contains(msg, "Mon") {
			reply = `{"verdict": "pass", "reason": "names Monday"}`
		}
	default:
		return nil, fmt.Errorf("judge sent an unknown system prompt %.40q", req.System)
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: reply}}}, Usage: model.Usage{Input: int64(len(msg)), Output: 7}}, nil
}

// streamJudgedRun is a run of streamJudged by a real model, in dir: every
// case's attempts answer differently, and some end otherwise than
// answered (which the judge is not asked about).
func streamJudgedRun(dir string) *record.Run {
	h := record.Header{Preflight: record.Preflight{Valid: true}, Model: model.Info{Spec: "openai:gpt-x", Provider: "openai", Name: "gpt-x"}}
	answered := func(c, prompt string, n int, answer string) record.Attempt {
		return record.Attempt{Case: c, N: n, Prompt: prompt, End: record.EndAnswered, Answer: answer, DurationMS: int64(100 * n),
			Turns: []record.Turn{{Text: answer, Usage: model.Usage{Input: int64(50 * n), Output: 9}}}}
	}
	errored := func(c, prompt string, n int) record.Attempt {
		return record.Attempt{Case: c, N: n, Prompt: prompt, End: record.EndError, Error: &record.Error{Kind: record.KindProvider, Message: "provider down"}}
	}
	return &record.Run{Dir: dir, Header: h, Attempts: []record.Attempt{
		answered("single/net-worth", "What's my net worth?", 1, "Your net worth is S$2,394,755."),
		answered("decline/weather", "What's the weather like in Lisbon?", 1, "I can't see the weather."),
		answered("agent/plan", "Plan my week.", 1, "Mon: gym. Tue: dentist."),
		answered("single/accounts", "Which accounts do I have?", 1, "DBS and OCBC."),
		answered("decline/weather", "What's the weather like in Lisbon?", 2, "I am unable to check the weather."),
		answered("decline/weather", "What's the weather like in Lisbon?", 4, "Sunny, 24°C."),
		errored("agent/plan", "Plan my week.", 2),
		answered("agent/plan", "Plan my week.", 3, "Tue: dentist."),
		errored("decline/weather", "What's the weather like in Lisbon?", 3),
		answered("single/accounts", "Which accounts do I have?", 2, "Mon: DBS."),
		answered("single/net-worth", "What's my net worth?", 2, "I can't tell."),
	}}
}

// TestScoreStreamAsksTheJudgeAsScore: a run graded as a stream, asked
// about by a judge that reads only the attempts it keeps, is graded,
// judged and costed as Score grades it read whole: the same grades,
// opinions, rulings and usage, and the same files, byte for byte. Asked
// again, the stored opinions are kept alike; with a budget that stops the
// judge, the same asks are made and the same left unmade.
func TestScoreStreamAsksTheJudgeAsScore(t *testing.T) {
	s := loadSuite(t, streamJudged)
	j := judge.New(readingJudge{}, model.Info{Provider: "script", Name: "judge"})
	for name, opts := range map[string]func() Options{
		"fresh": func() Options { return Options{Judge: j, JudgeAsks: 3} },
		"budget": func() Options {
			return Options{Judge: j, JudgeAsks: 3, JudgeConcurrency: 1, JudgeBudget: &usage.Budget{Tokens: 800}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			wholeDir, streamDir := filepath.Join(t.TempDir(), "run"), filepath.Join(t.TempDir(), "run")
			rd := recordtest.Open(t, streamJudgedRun(streamDir))
			recordtest.Open(t, streamJudgedRun(wholeDir))
			rec, err := record.Read(wholeDir)
			if err != nil {
				t.Fatal(err)
			}
			for _, round := range []string{"asked", "asked again"} {
				whole := Score(context.Background(), s, rec, opts())
				streamed, err := ScoreStream(context.Background(), s, rd, opts())
				if err != nil {
					t.Fatal(err)
				}
				if whole.Result.Judged == nil || len(whole.Judges) == 0 || (name == "fresh" && len(whole.Disagreements) == 0) {
					t.Fatalf("%s: judged %+v, judges %+v, disagreements %q: want the judge to have read and ruled", round, whole.Result.Judged, whole.Judges, whole.Disagreements)
				}
				same := func(what string, a, b any) {
					t.Helper()
					if d := cmp.Diff(a, b); d != "" {
						t.Errorf("%s: %s (-Score +ScoreStream):\n%s", round, what, d)
					}
				}
				same("result", whole.Result, streamed.Result)
				same("usage", whole.Usage, streamed.Usage)
				same("cost", whole.Cost, streamed.Cost)
				same("judge lines", whole.Judges, streamed.Judges)
				same("judge usage", whole.JudgeUsage, streamed.JudgeUsage)
				same("judge dollars", whole.JudgeCostUSD, streamed.JudgeCostUSD)
				same("disagreements", whole.Disagreements, streamed.Disagreements)
				same("split", whole.Split, streamed.Split)
				same("problems", whole.Problems, streamed.Problems)
				same("files", judgedFiles(t, wholeDir), judgedFiles(t, streamDir))
				if streamed.Record.Attempts != nil || streamed.Attempts != len(rec.Attempts) {
					t.Errorf("%s: the streamed run holds %d attempts and counts %d; want none held and %d counted", round, len(streamed.Record.Attempts), streamed.Attempts, len(rec.Attempts))
				}
			}
		})
	}
}

// judgedFiles reads the files a judged run's scoring writes, by name.
func judgedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := readDerived(t, dir)
	b, err := os.ReadFile(rundir.Path(dir, rundir.Judge))
	if err != nil {
		t.Fatal(err)
	}
	out[rundir.Judge] = string(b)
	return out
}
