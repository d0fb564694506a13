//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package target

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerAs answers every elicitation with its name as content.
type answerAs string

func (a answerAs) Sample(context.Context, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: string(a)}, Model: "test", Role: "assistant"}, nil
}

func (a answerAs) Elicit(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": string(a)}}, nil
}

// TestRequestFindsItsCall: a server's request belongs to the answered call
// in flight on its session (answered calls take turns); with none it is
// refused.
func TestRequestFindsItsCall(t *testing.T) {
	var q asked
	if _, err := q.current(); err != ErrNoCall {
		t.Errorf("no call in flight: %v, want ErrNoCall", err)
	}
	q.cur = answerAs("ada")
	if a, err := q.current(); err != nil || a != answerAs("ada") {
		t.Errorf("one call in flight: %v %v, want its answerer", a, err)
	}
}
