//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chattyServer's total tool reports its progress 25 times and logs once
// at info and once at debug before it answers.
func chattyServer(bool) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "chatty", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_total", Description: "the total", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, tickOut, error) {
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "sum", Data: "adding <up>"})
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Data: "chatter"})
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 25; i++ {
					req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 25})
				}
			}
			return nil, tickOut{Ticks: 42}, nil
		})
	return s, nil
}

// TestRunRecordsNotesAndRoots runs a suite with roots and log_level: the
// header keeps the roots (a relative one resolved against the suite's
// folder) and the level, and the call keeps the server's log message and
// its progress, 20 notes at most, the rest counted.
func TestRunRecordsNotesAndRoots(t *testing.T) {
	s := loadSuite(t, `name: chatty
target: builtin:chatty
log_level: info
roots:
  - {uri: data, name: data}
  - {uri: "file:///srv/shared"}
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [get_total]}
    key:
      calls: [{tool: get_total}]
      answer: The total is 42.
`)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect"}, Attempts: 1,
		Target: target.Config{Builtins: target.Builtins{"chatty": chattyServer}}, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(inSuiteDir(s, "data"))
	wantRoots := []record.Root{{URI: "file://" + filepath.ToSlash(abs), Name: "data"}, {URI: "file:///srv/shared"}}
	if d := cmp.Diff(wantRoots, rec.Header.Roots); d != "" {
		t.Errorf("header roots (-want +got):\n%s", d)
	}
	if rec.Header.LogLevel != "info" {
		t.Errorf("header log level %q, want info", rec.Header.LogLevel)
	}
	calls := rec.Attempts[0].Calls()
	if len(calls) != 1 {
		t.Fatalf("calls %+v", calls)
	}
	want := []record.Note{{Kind: "log", Level: "info", Logger: "sum", Message: "adding <up>"}}
	for i := 1; i <= 19; i++ {
		want = append(want, record.Note{Kind: "progress", Progress: float64(i), Total: 25})
	}
	if d := cmp.Diff(want, calls[0].Notes); d != "" || calls[0].NotesDropped != 6 {
		t.Errorf("notes (-want +got):\n%s\ndropped %d, want 6", d, calls[0].NotesDropped)
	}
	if got := fmt.Sprint(want[0].Line(), " | ", want[1].Line()); got != "log info (sum): adding <up> | progress 1/25" {
		t.Errorf("note lines: %q", got)
	}
}
