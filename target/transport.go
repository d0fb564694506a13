package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newMemoryTransports returns a connected pair of in-process transports,
// for a client and a server, like mcp.NewInMemoryTransports: every
// JSON-RPC message is encoded as it would be on the wire, handed over
// whole, and decoded once on the other side. The go-sdk's own pair frames
// messages over a net.Pipe and decodes each one through a decoder that
// allocates a 32 KiB buffer for it, and two more for a request
// (docs/performance.md, "CPU per turn"); this pair decodes a message in
// place, with nothing allocated beyond the message itself.
//
// Like a pipe, a write waits until the other side reads it, and closing
// either side closes both: the other side's reads then end with io.EOF.
// Batches are refused, as the MCP versions since 2025-06-18 refuse them.
func newMemoryTransports() (client, server mcp.Transport) {
	ab, ba := make(chan []byte), make(chan []byte)
	p := &memPair{done: make(chan struct{})}
	return &memTransport{&memConn{p: p, in: ba, out: ab}}, &memTransport{&memConn{p: p, in: ab, out: ba}}
}

// memTransport is one side of a memory pair; it connects once.
type memTransport struct{ c *memConn }

// Connect returns the side's connection.
func (t *memTransport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// memPair is what both sides of a memory pair share: whether it is closed.
type memPair struct {
	once sync.Once
	done chan struct{}
}

// memConn is one side of a memory pair.
type memConn struct {
	p       *memPair
	in, out chan []byte
}

// Read returns the next message the other side wrote.
func (c *memConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.p.done:
		return nil, io.EOF
	case data := <-c.in:
		return decodeMessage(data)
	}
}

// Write hands msg, encoded, to the other side once it reads.
func (c *memConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.p.done:
		return io.ErrClosedPipe
	case c.out <- data:
		return nil
	}
}

// Close closes both sides.
func (c *memConn) Close() error {
	c.p.once.Do(func() { close(c.p.done) })
	return nil
}

// SessionID is empty: a memory pair has no session id.
func (c *memConn) SessionID() string { return "" }

// decodeMessage decodes one JSON-RPC 2.0 message as the go-sdk's
// jsonrpc.DecodeMessage does (member names matched exactly, a request
// told from a response by its "method" member, numeric ids read as
// integers) but with the standard library's decoder, which allocates no
// per-message buffer. A batch (an array) is an error.
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var w map[string]json.RawMessage
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if w == nil {
		return nil, errors.New("unmarshaling jsonrpc message: null is not a message")
	}
	var version string
	if raw, ok := w["jsonrpc"]; ok {
		if err := json.Unmarshal(raw, &version); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: jsonrpc: %w", err)
		}
	}
	if version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", version, "2.0")
	}
	var rawID any
	if raw, ok := w["id"]; ok {
		if err := json.Unmarshal(raw, &rawID); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: id: %w", err)
		}
	}
	id, err := jsonrpc.MakeID(rawID)
	if err != nil {
		return nil, err
	}
	if raw, ok := w["method"]; ok {
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: method: %w", err)
		}
		return &jsonrpc.Request{Method: method, ID: id, Params: w["params"]}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("invalid request: a message with neither a method nor an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: w["result"]}
	if raw, ok := w["error"]; ok && string(raw) != "null" {
		var we jsonrpc.Error
		if err := json.Unmarshal(raw, &we); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: error: %w", err)
		}
		resp.Error = &we
	}
	return resp, nil
}
