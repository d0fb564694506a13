//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package target

import (
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answerer answers the requests a server makes of the client while one of
// its tool calls is under way: sampling (sampling/createMessage) and
// elicitation (elicitation/create, form mode). Its methods are called on
// the SDK's goroutine, while the call waits for its result; an error
// returned is sent to the server as the request's JSON-RPC error.
type Answerer interface {
	// Sample answers a sampling request with a model's message.
	Sample(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	// Elicit answers an elicitation request as the user would: accept
	// (with content fitting p.RequestedSchema), decline or cancel.
	Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

type answererKey struct{}

// Answering returns a context under which a tool call (Conn.CallTool)
// has the server's requests answered by a. Without it a server's
// sampling request is refused and its elicitation declined, at once.
func Answering(ctx context.Context, a Answerer) context.Context {
	return context.WithValue(ctx, answererKey{}, a)
}

// asked routes a server's request to the call in flight on the session
// it came on. MCP gives a server's request no link to the call it was
// made during (over stdio there is none on the wire), so a session whose
// calls may be answered carries one such call at a time: answered calls
// take turns on it, and the request that arrives belongs to the one call
// in flight. Calls without an Answerer (preflight, fixtures) do not wait.
// Letting answered calls overlap until the server first asks was tried:
// the first request on a busy shared session then had several calls to
// belong to and had to be refused, failing an attempt by chance. Taking
// turns costs a shared read-only run the overlap of its tool calls, which
// are short beside the model's turns.
type asked struct {
	turn sync.Mutex // held by the answered call in flight

	mu  sync.Mutex
	cur Answerer // the answered call in flight, if any
}

// ErrNoCall is the error a sampling request gets when no answered call is
// in flight on its session.
var ErrNoCall = errors.New("mcpeval answers sampling only during a tool call it made")

// answerRequests declares sampling and elicitation (form mode) in opts
// and routes both to the call in flight on c's session.
func (c *Conn) answerRequests(opts *mcp.ClientOptions) {
	opts.CreateMessageHandler = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		a, err := c.asked.current()
		if err != nil {
			return nil, err
		}
		return a.Sample(ctx, req.Params)
	}
	opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		a, err := c.asked.current()
		if err != nil {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		return a.Elicit(ctx, req.Params)
	}
}

// current returns the answered call in flight.
func (q *asked) current() (Answerer, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.cur == nil {
		return nil, ErrNoCall
	}
	return q.cur, nil
}

// callTool sends a call on c's own session, with the server's requests
// answered by the Answerer ctx carries, if any.
func (c *Conn) callTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	a, _ := ctx.Value(answererKey{}).(Answerer)
	if a == nil {
		return c.watch.sessionCall(ctx, c.Session, params)
	}
	q := &c.asked
	q.turn.Lock()
	defer q.turn.Unlock()
	q.mu.Lock()
	q.cur = a
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.cur = nil
		q.mu.Unlock()
	}()
	return c.watch.sessionCall(ctx, c.Session, params)
}
