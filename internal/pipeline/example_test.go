package pipeline_test

import (
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/pipeline"
)

// A gate on a run whose every attempt ended in an error cannot pass: there
// is no pass rate to compare with --min-pass.
func ExampleGates_Check() {
	down := &grade.Result{Model: "openai:gpt-x", Valid: true}
	down.Totals.Errors = 10
	down.Totals.ErrorKinds = map[string]int{"provider": 10}

	v := pipeline.Gates{MinPass: 0.9}.Check([]*grade.Result{down}, nil)
	fmt.Println(v.Passed())
	for _, why := range v.TooFew {
		fmt.Println(why)
	}
	// Output:
	// false
	// openai:gpt-x: no attempt was graded: all 10 ended in an error (provider 10), so no gate can pass
}
