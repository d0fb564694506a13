package runner_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A suite of one question about an in-process server, put to fake:perfect
// (which replays the case's key), then graded.
func Example() {
	const yaml = `name: example
target: builtin:totals
attempts: 2
cases:
  - id: totals/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    key:
      calls: [{tool: get_total}]
      answer: The total is 42.
`
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(yaml)}}, "suite.yaml", "example")
	if err != nil {
		log.Fatal(err)
	}

	// The server under evaluation; any MCP server built with the go-sdk
	// can be handed to the runner this way, or reached over stdio or HTTP.
	type out struct {
		Total int `json:"total"`
	}
	totals := func(bool) (*mcp.Server, error) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "totals", Version: "1"}, nil)
		mcp.AddTool(srv, &mcp.Tool{Name: "get_total", Description: "The total.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, out, error) {
				return nil, out{Total: 42}, nil
			})
		return srv, nil
	}

	m, err := fake.New("perfect", s)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mcpeval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	rec, err := runner.Run(context.Background(), runner.Config{
		Suite:     s,
		Target:    target.Config{Builtins: target.Builtins{"totals": totals}},
		Model:     m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		OutDir:    dir,
	})
	if err != nil {
		log.Fatal(err)
	}
	res := grade.Run(s, rec)
	fmt.Printf("%d attempts recorded; %d of %d graded attempts passed\n", len(rec.Attempts), res.Totals.Passed, res.Totals.Graded)
	// Output: 2 attempts recorded; 2 of 2 graded attempts passed
}
