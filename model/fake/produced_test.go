package fake_test

import (
	"context"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// producedSuite promotes a user whose id an earlier step returns: the id
// is read at a path of the lookup's structured content, which its text
// ("dana is user u-7f3, a viewer.") does not hold as JSON.
const producedSuite = `name: produced
target: builtin:users
allow_writes: true
cases:
  - id: sequence/promote
    prompt: Make dana an operator.
    action:
      kind: sequence
      steps:
        - tool: find_user
          args: {username: {literal: dana}}
        - tool: set_role
          args:
            user_id: {produced: id}
            role: {literal: operator}
`

// usersServer answers find_user with prose and the user as structured
// content, and set_role only for the user's id.
func usersServer(bool) (*mcp.Server, error) {
	type user struct {
		ID   string `json:"id"`
		Role string `json:"role"`
	}
	type findIn struct {
		Username string `json:"username"`
	}
	type roleIn struct {
		UserID string `json:"user_id"`
		Role   string `json:"role"`
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "users", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "find_user", Description: "Find a user by username.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in findIn) (*mcp.CallToolResult, user, error) {
			u := user{ID: "u-7f3", Role: "viewer"}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Username + " is user " + u.ID + ", a " + u.Role + "."}}}, u, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "set_role", Description: "Set a user's role."},
		func(_ context.Context, _ *mcp.CallToolRequest, in roleIn) (*mcp.CallToolResult, user, error) {
			if in.UserID != "u-7f3" {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no user " + in.UserID}}}, user{}, nil
			}
			return nil, user{ID: in.UserID, Role: in.Role}, nil
		})
	return srv, nil
}

// TestPerfectProducedFromStructured: fake:perfect passes an action case
// whose key reads a produced argument from the structured content of an
// earlier result, as the grader reads it, when the model is shown only the
// result's text.
func TestPerfectProducedFromStructured(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(producedSuite)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	fx, _ := fixture.For(s)
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Builtins: target.Builtins{"users": usersServer}}, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Attempts:  1, OutDir: t.TempDir(), Fixtures: fx, CallTimeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Run(s, rec)
	if res.Totals.Graded != 1 || res.Totals.Passed != 1 {
		for _, a := range res.Attempts {
			t.Errorf("%s #%d: %s %v", a.Case, a.N, a.Outcome, a.Reasons)
		}
		t.Fatalf("fake:perfect passed %d of %d graded attempts, want 1 of 1", res.Totals.Passed, res.Totals.Graded)
	}
}
