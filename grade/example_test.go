package grade_test

import (
	"encoding/json"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Grading needs no model and no server: only the suite and a record of
// what happened. Here two attempts are written by hand: one answers with
// the figure the tool returned, the other with a figure of its own.
func ExampleRun() {
	const yaml = `name: example
cases:
  - id: totals/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    no_invented_figures: true
`
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(yaml)}}, "suite.yaml", "example")
	if err != nil {
		log.Fatal(err)
	}
	call := record.Call{ID: "c1", Name: "get_total", Args: json.RawMessage(`{}`), Result: `{"total":42}`, Shown: true}
	attempt := func(n int, answer string) record.Attempt {
		return record.Attempt{Case: "totals/total", N: n, End: record.EndAnswered, Answer: answer,
			Turns: []record.Turn{{Calls: []record.Call{call}}, {Text: answer}}}
	}
	rec := &record.Run{
		Header: record.Header{Format: record.Format, RunID: "example", Preflight: record.Preflight{Valid: true},
			Tools: []record.Tool{{Name: "get_total", ReadOnly: true}}},
		Attempts: []record.Attempt{attempt(1, "The total is 42."), attempt(2, "The total is 47.")},
	}

	res := grade.Run(s, rec)
	for _, a := range res.Attempts {
		fmt.Printf("#%d %s %v\n", a.N, a.Outcome, a.Reasons)
	}
	fmt.Printf("%d of %d passed\n", res.Totals.Passed, res.Totals.Graded)
	// Output:
	// #1 pass []
	// #2 fail [figures: expected 42 exactly; answer states 47 (off by 5)]
	// 1 of 2 passed
}
