//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package target

import (
	"context"
	"sync"
	"testing"
	"time"

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

// meetingServer lists meet, which answers only once two calls of it are
// in flight at the same time (else "alone" after a while).
func meetingServer() Builtins {
	var mu sync.Mutex
	arrived := 0
	both := make(chan struct{})
	return Builtins{"meet": func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "meet", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "meet", Description: "meets another call"},
			func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
				mu.Lock()
				if arrived++; arrived == 2 {
					close(both)
				}
				mu.Unlock()
				text := "met"
				select {
				case <-both:
				case <-time.After(5 * time.Second):
					text = "alone"
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
			})
		return s, nil
	}}
}

// TestAnsweredCallsRunSideBySide: answering a server's requests does not
// make the answered calls of a shared session wait for each other while
// the server has asked nothing.
func TestAnsweredCallsRunSideBySide(t *testing.T) {
	ctx := context.Background()
	c, err := Dial(ctx, Config{Spec: "builtin:meet", Builtins: meetingServer()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	got := make([]string, 2)
	for i, who := range []answerAs{"ada", "grace"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.CallTool(Answering(ctx, who), &mcp.CallToolParams{Name: "meet", Arguments: map[string]any{"text": ""}})
			if err != nil {
				got[i] = err.Error()
				return
			}
			got[i] = res.Content[0].(*mcp.TextContent).Text
		}()
	}
	wg.Wait()
	if got[0] != "met" || got[1] != "met" {
		t.Fatalf("two answered calls on one session: %q; want both in flight at once (met)", got)
	}
}

// TestRequestFindsItsCall: a server's request belongs to the one answered
// call in flight on its session; with none it is refused, with several it
// is refused rather than guessed, and the session's later calls take turns.
func TestRequestFindsItsCall(t *testing.T) {
	var q asked
	if _, err := q.current(); err != ErrNoCall {
		t.Errorf("no call in flight: %v, want ErrNoCall", err)
	}
	q.inflight = []Answerer{answerAs("ada")}
	if a, err := q.current(); err != nil || a != answerAs("ada") {
		t.Errorf("one call in flight: %v %v, want its answerer", a, err)
	}
	q.inflight = append(q.inflight, answerAs("grace"))
	if _, err := q.current(); err != ErrSeveralCalls {
		t.Errorf("two calls in flight: %v, want ErrSeveralCalls", err)
	}
	if !q.asks {
		t.Error("a session whose server asked does not make its calls take turns")
	}
}
