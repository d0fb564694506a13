package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDecodeMessageAsTheSDK: the memory transport's decoder reads every
// message as the go-sdk's jsonrpc.DecodeMessage does, and refuses what it
// refuses.
func TestDecodeMessageAsTheSDK(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"total","arguments":{"months":3}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"x"}}`,
		`{"jsonrpc":"2.0","id":0,"method":""}`,
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"42"}],"structuredContent":{"total":42}}}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"bad arguments","data":{"field":"months"}}}`,
		`{"jsonrpc":"2.0","id":9,"result":{},"error":null}`,
		` {"id":10,"jsonrpc":"2.0","result":null} `,
		`{"jsonrpc":"2.0","id":11.0,"result":{}}`,
	} {
		want, werr := jsonrpc.DecodeMessage([]byte(msg))
		got, err := decodeMessage([]byte(msg))
		if werr != nil || err != nil {
			t.Errorf("%s: go-sdk %v, ours %v", msg, werr, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", msg, got, want)
		}
	}
	for _, msg := range []string{
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"JSONRPC":"2.0","ID":1,"Method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`null`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
	} {
		if _, werr := jsonrpc.DecodeMessage([]byte(msg)); werr == nil && msg[0] != '[' && msg != "null" {
			t.Errorf("%s: the go-sdk accepts it: the case is wrong", msg)
		}
		if got, err := decodeMessage([]byte(msg)); err == nil {
			t.Errorf("%s: decoded as %#v, want an error", msg, got)
		}
	}
}

// TestMemoryTransports: a client and a server over the memory pair
// initialize, list and call tools, and see the other side close.
func TestMemoryTransports(t *testing.T) {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	type in struct {
		Months int `json:"months"`
	}
	type out struct {
		Total int `json:"total"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "total"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		if a.Months < 0 {
			return nil, out{}, errors.New("months must not be negative")
		}
		return nil, out{Total: 14 * a.Months}, nil
	})
	ct, st := newMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "s" {
		t.Errorf("server name %q", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "total", Arguments: map[string]any{"months": 3}})
	if err != nil || res.IsError || res.StructuredContent == nil {
		t.Fatalf("call: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `{"total":42}` {
		t.Errorf("result %s", got)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "total", Arguments: map[string]any{"months": -1}})
	if err != nil || !res.IsError {
		t.Errorf("a tool's error: %v %+v", err, res)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Error("an unknown tool was called")
	}
	// Closing the server ends the client's session.
	ss.Close()
	done := make(chan error, 1)
	go func() { done <- cs.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the client did not see the server close")
	}
	if err := cs.Ping(ctx, nil); err == nil {
		t.Error("a ping after close was answered")
	}
}

// TestMemoryConnClosed: a read waiting on a closed pair ends with io.EOF,
// and a write to one fails.
func TestMemoryConnClosed(t *testing.T) {
	ct, st := newMemoryTransports()
	ctx := context.Background()
	a, _ := ct.Connect(ctx)
	b, _ := st.Connect(ctx)
	read := make(chan error, 1)
	go func() {
		_, err := a.Read(ctx)
		read <- err
	}()
	b.Close()
	if err := <-read; !errors.Is(err, io.EOF) {
		t.Errorf("read on a closed pair: %v, want io.EOF", err)
	}
	if err := a.Write(ctx, &jsonrpc.Request{Method: "ping"}); err == nil {
		t.Error("a write on a closed pair succeeded")
	}
}

// TestStreamConnReads: the stdio connection reads messages one a line (or
// split over lines, as the go-sdk's does), and ends the connection with an
// error at a batch, at text after a message on its line, and at a message
// longer than its bound.
func TestStreamConnReads(t *testing.T) {
	open := func(input string, limit int64) *streamConn {
		c := &streamConn{w: io.Discard, incoming: make(chan decoded), closed: make(chan struct{}), closeFn: func() error { return nil }}
		go c.read(&frameLimit{r: strings.NewReader(input), limit: limit})
		return c
	}
	ctx := context.Background()
	c := open(`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"+`{"jsonrpc":"2.0",`+"\n"+`"method":"ping","id":"a"}`+"\r\n", 1<<20)
	for _, want := range []string{"*jsonrpc2.Response", "*jsonrpc2.Request"} {
		msg, err := c.Read(ctx)
		if err != nil || fmt.Sprintf("%T", msg) != want {
			t.Fatalf("read %T, %v; want a %s", msg, err, want)
		}
	}
	if _, err := c.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("at the end of the stream: %v, want io.EOF", err)
	}
	c.Close()
	for _, bad := range []struct {
		name, input, want string
		limit             int64
	}{
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n", "batch", 1 << 20},
		{"trailing text", `{"jsonrpc":"2.0","id":1,"method":"ping"} x` + "\n", "trailing", 1 << 20},
		{"too long", `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 200) + `"}}` + "\n", "longer than 100 bytes", 100},
		{"not JSON-RPC", `{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n", "version", 1 << 20},
	} {
		c := open(bad.input, bad.limit)
		_, err := c.Read(ctx)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error saying %q", bad.name, err, bad.want)
		}
		c.Close()
	}
}
