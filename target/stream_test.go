package target_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/netclient"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// streamServer is a streamable HTTP MCP server written by hand, so that a
// test can shape its event streams as the go-sdk's server never would.
// It answers initialize and tools/list in JSON; a tools/call is answered
// on an event stream by call, which may end the stream early; a GET is
// the standalone stream, served by get or refused with 405.
type streamServer struct {
	*httptest.Server
	// call answers tools/call id on the POST's event stream w.
	call func(w *sseWriter, r *http.Request, id json.RawMessage)
	// get serves a GET (nil: 405).
	get func(w *sseWriter, r *http.Request)

	mu      sync.Mutex
	gets    []string             // each GET's Last-Event-ID ("" for none)
	answers chan json.RawMessage // what the client POSTed back to a server request
}

func newStreamServer(t *testing.T) *streamServer {
	s := &streamServer{answers: make(chan json.RawMessage, 4)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *streamServer) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		s.mu.Lock()
		s.gets = append(s.gets, r.Header.Get("Last-Event-ID"))
		get := s.get
		s.mu.Unlock()
		if get == nil {
			w.Header().Set("Allow", "POST, DELETE")
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		get(newSSE(w), r)
		return
	case http.MethodDelete:
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Mcp-Session-Id", "s1")
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result)
	}
	switch {
	case msg.Method == "initialize":
		reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"stream","version":"1"}}`)
	case msg.Method == "tools/list":
		reply(`{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}`)
	case msg.Method == "tools/call":
		s.call(newSSE(w), r, msg.ID)
	case msg.Method == "":
		// The client's answer to a request of the server's.
		if msg.Error != nil {
			s.answers <- msg.Error
		} else {
			s.answers <- msg.Result
		}
		w.WriteHeader(http.StatusAccepted)
	case msg.ID != nil: // server/discover, say: a server of 2025-11-25
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, msg.ID)
	default:
		w.WriteHeader(http.StatusAccepted) // notifications
	}
}

func (s *streamServer) lastEventIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.gets...)
}

// sseWriter writes server-sent events, flushing each.
type sseWriter struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Mcp-Session-Id", "s1")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	return &sseWriter{w}
}

// event writes an event of the given fields ("id", "retry", "data").
func (e *sseWriter) event(fields ...string) {
	for i := 0; i+1 < len(fields); i += 2 {
		fmt.Fprintf(e.w, "%s: %s\n", fields[i], fields[i+1])
	}
	fmt.Fprint(e.w, "\n")
	e.w.(http.Flusher).Flush()
}

const callResult = `{"content":[{"type":"text","text":"done"}]}`

func dialStream(t *testing.T, url string) *target.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := target.Dial(ctx, target.Config{Spec: url})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// callSlow calls the tool slow with a deadline and returns its text.
func callSlow(c *target.Conn, within time.Duration) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	start := time.Now()
	res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
	if err != nil {
		return "", time.Since(start), err
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	return text, time.Since(start), nil
}

// TestCallResumesDroppedStream has the server prime a call's event stream
// with an event id and a retry of 300ms, then drop it: the client waits
// the retry, resumes the stream with a GET naming that id in
// Last-Event-ID, and gets the call's result there.
func TestCallResumesDroppedStream(t *testing.T) {
	s := newStreamServer(t)
	dropped := make(chan time.Time, 1)
	callID := make(chan json.RawMessage, 1)
	s.call = func(w *sseWriter, r *http.Request, id json.RawMessage) {
		callID <- id
		w.event("id", "call-1", "retry", "300", "data", "")
		dropped <- time.Now()
	}
	s.get = func(w *sseWriter, r *http.Request) {
		if r.Header.Get("Last-Event-ID") != "call-1" {
			<-r.Context().Done() // the standalone stream: nothing to say
			return
		}
		w.event("id", "call-2", "data", `{"jsonrpc":"2.0","id":`+string(<-callID)+`,"result":`+callResult+`}`)
	}
	c := dialStream(t, s.URL)
	defer c.Close()
	text, _, err := callSlow(c, 10*time.Second)
	if err != nil {
		t.Fatalf("a call whose stream was dropped after its priming event: %v, want it resumed", err)
	}
	if text != "done" {
		t.Errorf("result %q, want done", text)
	}
	var resumed bool
	for _, id := range s.lastEventIDs() {
		resumed = resumed || id == "call-1"
	}
	if !resumed {
		t.Errorf("GETs sent Last-Event-ID %q, want one naming call-1", s.lastEventIDs())
	}
	if since := time.Since(<-dropped); since < 250*time.Millisecond {
		t.Errorf("resumed %s after the drop, want the server's retry of 300ms honoured", since)
	}
}

// TestCallFailsWhenServerDies has the server prime a call's stream and
// then go away altogether: resuming fails and the call fails with it,
// within seconds, not at the call's deadline.
func TestCallFailsWhenServerDies(t *testing.T) {
	s := newStreamServer(t)
	var once sync.Once
	s.call = func(w *sseWriter, r *http.Request, id json.RawMessage) {
		w.event("id", "call-1", "retry", "100", "data", "")
		once.Do(func() { go s.CloseClientConnections(); s.Listener.Close() })
	}
	c := dialStream(t, s.URL)
	defer c.Close()
	_, took, err := callSlow(c, 30*time.Second)
	if err == nil {
		t.Fatal("a call to a server that died succeeded")
	}
	if took > 15*time.Second {
		t.Errorf("a call to a server that died failed after %s (%v), want within 15s", took, err)
	}
}

// TestServerRequestOnStandaloneStream has the server, during a call, send
// elicitation/create on the standalone stream and answer the call only
// once the client has answered it: mcpeval answers it at once (a call
// made with nobody to answer for the user declines), and the call
// completes.
func TestServerRequestOnStandaloneStream(t *testing.T) {
	s := newStreamServer(t)
	standalone := make(chan *sseWriter, 1)
	s.get = func(w *sseWriter, r *http.Request) {
		standalone <- w
		<-r.Context().Done()
	}
	s.call = func(w *sseWriter, r *http.Request, id json.RawMessage) {
		var g *sseWriter
		select {
		case g = <-standalone:
		case <-time.After(3 * time.Second):
			w.event("data", `{"jsonrpc":"2.0","id":`+string(id)+`,"error":{"code":-32603,"message":"no standalone stream was opened"}}`)
			return
		}
		g.event("data", `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
		select {
		case a := <-s.answers:
			w.event("data", `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"content":[{"type":"text","text":`+strconvQuote(string(a))+`}]}}`)
		case <-r.Context().Done():
		}
	}
	c := dialStream(t, s.URL)
	defer c.Close()
	text, _, err := callSlow(c, 10*time.Second)
	if err != nil {
		t.Fatalf("a call during which the server asked for elicitation: %v, want an answer", err)
	}
	if !strings.Contains(text, `"action":"decline"`) {
		t.Errorf("the client answered elicitation/create with %s, want a decline", text)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestNoStandaloneStreamNoLeak connects to a server that refuses the
// standalone stream (405) and to one that holds it open, and closes each:
// nothing hangs, and no goroutine is left behind.
func TestNoStandaloneStreamNoLeak(t *testing.T) {
	for _, offers := range []bool{false, true} {
		t.Run(fmt.Sprintf("offers=%v", offers), func(t *testing.T) {
			s := newStreamServer(t)
			if offers {
				s.get = func(w *sseWriter, r *http.Request) { <-r.Context().Done() }
			}
			before := runtime.NumGoroutine()
			c := dialStream(t, s.URL)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := c.Tools(ctx); err != nil {
				t.Fatal(err)
			}
			closed := make(chan error, 1)
			go func() { closed <- c.Close() }()
			select {
			case <-closed:
			case <-time.After(10 * time.Second):
				t.Fatal("Close hung")
			}
			baseTransportIdle()
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// baseTransportIdle closes the idle keep-alive connections of the shared
// transport, whose reader goroutines are not a leak.
func baseTransportIdle() {
	netclient.Transport().CloseIdleConnections()
}
