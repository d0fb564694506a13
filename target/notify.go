//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package target

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Root is a root the client declares to the server (roots/list): a
// file:// URI and an optional name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// LogLevels are the levels a client may ask a server to log at, least
// severe first (logging/setLevel).
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Note is one notification a server sent about a tool call while it ran:
// a progress report (Kind "progress") or a log message (Kind "log").
type Note struct {
	Kind     string          `json:"kind"`
	Progress float64         `json:"progress,omitempty"`
	Total    float64         `json:"total,omitempty"`
	Message  string          `json:"message,omitempty"`
	Level    string          `json:"level,omitempty"`
	Logger   string          `json:"logger,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
}

// Notes collects the notes of one tool call, keeping at most Max (0
// keeps none) and counting the rest as dropped. The SDK hands a
// notification over after the result that followed it on the wire, so
// the notes keep arriving after the call returns, until Close. It is
// safe for concurrent use.
type Notes struct {
	Max     int
	mu      sync.Mutex
	kept    []Note
	dropped int
	stop    func()
}

// Close stops collecting: notes that arrive later are not kept.
func (n *Notes) Close() {
	n.mu.Lock()
	stop := n.stop
	n.stop = nil
	n.mu.Unlock()
	if stop != nil {
		stop()
	}
}

func (n *Notes) add(note Note) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.kept) >= n.Max {
		n.dropped++
		return
	}
	n.kept = append(n.kept, note)
}

// Kept returns the notes kept, in the order they arrived, and how many
// were dropped beyond Max.
func (n *Notes) Kept() ([]Note, int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.kept), n.dropped
}

type notesKey struct{}

// WithNotes returns a context under which a tool call (Conn.CallTool)
// asks the server for progress (a progressToken in the request's _meta)
// and adds to notes the progress and log messages the server sends
// about it, until notes.Close. A log message names no call: it is added
// to every call still collecting on the connection when it arrives.
func WithNotes(ctx context.Context, notes *Notes) context.Context {
	return context.WithValue(ctx, notesKey{}, notes)
}

// watch is what a connection's notification handlers report to: the
// calls under way that want notes, and how many times the server said
// its tools changed.
type watch struct {
	logLevel string // asked for with every tool call, as the 2026-07-28 protocol does
	onWire   bool   // notifications are seen as they are read (wire)
	changed  atomic.Uint64
	next     atomic.Uint64
	mu       sync.Mutex
	calls    map[string]*Notes // by progress token
}

// clientOptions are the client's options for the notifications it
// takes part in; w receives them. Over a transport w reads on the wire
// (onWire), w has seen each notification before the client's handlers
// run, and they leave it alone.
func clientOptions(w *watch) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			if !w.onWire {
				w.changed.Add(1)
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if !w.onWire && req.Params != nil {
				w.progress(req.Params)
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			if !w.onWire && req.Params != nil {
				w.log(req.Params)
			}
		},
	}
}

func (w *watch) progress(p *mcp.ProgressNotificationParams) {
	w.mu.Lock()
	n := w.calls[fmt.Sprint(p.ProgressToken)]
	w.mu.Unlock()
	if n != nil {
		n.add(Note{Kind: "progress", Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

func (w *watch) log(p *mcp.LoggingMessageParams) {
	note := Note{Kind: "log", Level: string(p.Level), Logger: p.Logger}
	if s, ok := p.Data.(string); ok {
		note.Message = s
	} else if b, err := json.Marshal(p.Data); err == nil {
		note.Data = b
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.calls {
		n.add(note)
	}
}

// wire returns transport t reading through w: each notification is seen
// as it is read, before a result that follows it, so a call's notes are
// complete when the call returns. Only the transports of this package are
// wrapped: the SDK's own may carry methods a wrapper would hide.
func (w *watch) wire(t mcp.Transport) mcp.Transport {
	w.onWire = true
	return &wireTransport{t: t, w: w}
}

type wireTransport struct {
	t mcp.Transport
	w *watch
}

func (t *wireTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &wireConn{Connection: c, w: t.w}, nil
}

type wireConn struct {
	mcp.Connection
	w *watch
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && !req.IsCall() {
		c.w.seen(req)
	}
	return msg, err
}

// seen notes a notification read off the wire.
func (w *watch) seen(req *jsonrpc.Request) {
	switch req.Method {
	case "notifications/tools/list_changed":
		w.changed.Add(1)
	case "notifications/progress":
		var p mcp.ProgressNotificationParams
		if json.Unmarshal(req.Params, &p) == nil {
			w.progress(&p)
		}
	case "notifications/message":
		var p mcp.LoggingMessageParams
		if json.Unmarshal(req.Params, &p) == nil {
			w.log(&p)
		}
	}
}

// addRoots declares cfg's roots on client before it connects.
func addRoots(client *mcp.Client, cfg Config) {
	var roots []*mcp.Root
	for _, r := range cfg.Roots {
		roots = append(roots, &mcp.Root{URI: r.URI, Name: r.Name})
	}
	client.AddRoots(roots...)
}

// setLogLevel asks the server to log at cfg's LogLevel, when one is set,
// once for the session (logging/setLevel) when it speaks a protocol older
// than 2026-07-28, which asks for it with every request instead.
func setLogLevel(ctx context.Context, session *mcp.ClientSession, cfg Config) error {
	if cfg.LogLevel == "" || cfg.LogLevel == "off" {
		return nil
	}
	if v := session.InitializeResult(); v != nil && v.ProtocolVersion >= "2026-07-28" {
		return nil
	}
	if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(cfg.LogLevel)}); err != nil {
		return fmt.Errorf("setting the server's log level to %s: %w", cfg.LogLevel, err)
	}
	return nil
}

// checkNotify reports a log level the protocol does not know.
func (c Config) checkNotify() error {
	if c.LogLevel != "" && c.LogLevel != "off" && !slices.Contains(LogLevels, c.LogLevel) {
		return fmt.Errorf("log level %q: want off or one of %v", c.LogLevel, LogLevels)
	}
	return nil
}

// ToolsChanged returns how many times the server has said its tools
// changed (notifications/tools/list_changed) since the connection was
// made. A caller that remembers the count can tell when to list the
// tools again.
func (c *Conn) ToolsChanged() uint64 {
	if len(c.parts) > 0 || c.watch == nil {
		return 0 // several servers: their tools are routed as first listed
	}
	return c.watch.changed.Load()
}

// sessionCall calls a tool on session, asking for progress and
// collecting notes when ctx carries them (WithNotes).
func (w *watch) sessionCall(ctx context.Context, session *mcp.ClientSession, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	notes, _ := ctx.Value(notesKey{}).(*Notes)
	if notes == nil || w == nil {
		return session.CallTool(ctx, params)
	}
	token := "mcpeval-" + strconv.FormatUint(w.next.Add(1), 10)
	p := *params
	p.Meta = maps.Clone(params.Meta) // the caller's params stay as they were
	if w.logLevel != "" && w.logLevel != "off" {
		if p.Meta == nil {
			p.Meta = mcp.Meta{}
		}
		p.Meta[mcp.MetaKeyLogLevel] = w.logLevel
	}
	p.SetProgressToken(token)
	w.mu.Lock()
	if w.calls == nil {
		w.calls = map[string]*Notes{}
	}
	w.calls[token] = notes
	w.mu.Unlock()
	notes.mu.Lock()
	notes.stop = func() {
		w.mu.Lock()
		delete(w.calls, token)
		w.mu.Unlock()
	}
	notes.mu.Unlock()
	return session.CallTool(ctx, &p)
}
