package target

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is one of the several servers a target reaches together: its
// name in the suite (which prefixes its tools where names collide) and how
// to reach it.
type Server struct {
	Name   string
	Config Config
}

// Separator joins a server's name and a tool's name where a tool name
// occurs on more than one server ("memory__search"). Every provider
// accepts it in a tool name.
const Separator = "__"

// serversPrefix starts the spec of a target made of several servers.
const serversPrefix = "servers:"

// serverName is what a server's name may be: short, lowercase, and safe
// inside a tool name any provider accepts.
var serverName = regexp.MustCompile(`^[a-z0-9_-]+$`)

// ValidServerName reports whether name may name a server of a target
// made of several.
func ValidServerName(name string) bool { return serverName.MatchString(name) }

// Several returns the configuration of a target made of several servers,
// in the order of their names. The model is shown their tools together.
func Several(servers []Server) Config {
	s := append([]Server(nil), servers...)
	sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	names := make([]string, len(s))
	for i, sv := range s {
		names[i] = sv.Name
	}
	return Config{Spec: serversPrefix + strings.Join(names, ","), Servers: s}
}

// part returns server i's configuration with what the whole target sets
// for all of its servers: the builtin servers, the client version, the
// stderr lines kept, writability and, where the server sets none, the
// connect timeout.
func (c Config) part(i int) Config {
	p := c.Servers[i].Config
	p.Builtins, p.ClientVersion, p.StderrLines, p.Writable = c.Builtins, c.ClientVersion, c.StderrLines, c.Writable
	p.Roots, p.LogLevel = c.Roots, c.LogLevel // notify.go
	if p.ConnectTimeout == 0 {
		p.ConnectTimeout = c.ConnectTimeout
	}
	return p
}

// checkServers checks every server of a target made of several.
func (c Config) checkServers() error {
	if len(c.Servers) == 0 {
		return fmt.Errorf("target %q: names no server", c.Spec)
	}
	seen := map[string]bool{}
	var errs []error
	for i, s := range c.Servers {
		switch {
		case !ValidServerName(s.Name):
			errs = append(errs, fmt.Errorf("server %q: a server's name is lowercase letters, digits, _ and - only", s.Name))
		case seen[s.Name]:
			errs = append(errs, fmt.Errorf("server %s is named twice", s.Name))
		case s.Config.Kind() == "servers":
			errs = append(errs, fmt.Errorf("server %s: a server cannot itself be several", s.Name))
		default:
			if err := c.part(i).Check(); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", s.Name, err))
			}
		}
		seen[s.Name] = true
	}
	return errors.Join(errs...)
}

// describeServers returns how each server is described, by name:
// "servers: a=builtin:household; b=https://[endpoint]".
func (c Config) describeServers(describe func(Config) string) string {
	parts := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		parts[i] = s.Name + "=" + describe(s.Config)
	}
	return serversPrefix + " " + strings.Join(parts, "; ")
}

// part is one server's connection within a Conn to several. A part may
// be shared by several Conns (RedialFailed).
type part struct {
	name string
	conn *Conn
	// tools are the server's tools as it lists them, names unchanged.
	tools []*mcp.Tool
	// failed is set once a call the part was sent failed (see CallTool).
	failed atomic.Bool
}

// route says which server serves a tool the model is shown, and under
// which name the server knows it.
type route struct {
	part int
	tool string
}

// dialServers connects to every server of cfg in turn and lists each
// one's tools, so that a call can be routed from the first. A server that
// cannot be reached closes those already connected.
func dialServers(ctx context.Context, cfg Config) (*Conn, error) {
	c := &Conn{secrets: cfg.Secrets(nil), timeout: cfg.connectTimeout()}
	for i := range cfg.Servers {
		p, err := dialPart(ctx, cfg, i)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.parts = append(c.parts, p)
	}
	c.Session = c.parts[0].conn.Session
	c.routeTools()
	return c, nil
}

// dialPart connects to server i of cfg and lists its tools.
func dialPart(ctx context.Context, cfg Config, i int) (*part, error) {
	name := cfg.Servers[i].Name
	pc, err := Dial(ctx, cfg.part(i))
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", name, err)
	}
	tools, err := pc.Tools(ctx)
	if err != nil {
		pc.Close()
		return nil, fmt.Errorf("server %s: %w", name, err)
	}
	return &part{name: name, conn: pc, tools: tools}, nil
}

// FailedServers returns the servers of a connection to several whose
// calls failed: the server crashed, hung past the caller's deadline,
// broke the protocol, or answered with a JSON-RPC error other than a
// refusal of the call itself (an unknown tool, arguments that do not fit).
// It returns nil for a single server.
func (c *Conn) FailedServers() []string {
	var names []string
	for _, p := range c.parts {
		if p.failed.Load() {
			names = append(names, p.name)
		}
	}
	return names
}

// RedialFailed returns a new connection to the servers of c, a connection
// to several dialled with cfg, in which each server that failed
// (FailedServers) is connected afresh and every other server's session is
// c's own, shared: a failed server is restarted while the healthy ones
// keep their sessions and whatever state they hold, as they would for a
// real client. From then on c's healthy servers belong to the new
// connection: close c's failed ones with CloseFailed, and c itself not at
// all while the new one is in use. A failed server that cannot be
// reached again leaves c as it was. On a single server it dials cfg anew.
func (c *Conn) RedialFailed(ctx context.Context, cfg Config) (*Conn, error) {
	if len(c.parts) == 0 {
		return Dial(ctx, cfg)
	}
	n := &Conn{secrets: c.secrets, timeout: c.timeout}
	var dialled []*part
	for _, p := range c.parts {
		if !p.failed.Load() {
			n.parts = append(n.parts, p)
			continue
		}
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == p.name })
		if i < 0 {
			return nil, fmt.Errorf("server %s: not one of the target's servers", p.name)
		}
		np, err := dialPart(ctx, cfg, i)
		if err != nil {
			for _, d := range dialled {
				d.conn.Close()
			}
			return nil, err
		}
		dialled = append(dialled, np)
		n.parts = append(n.parts, np)
	}
	n.Session = n.parts[0].conn.Session
	n.routeTools()
	return n, nil
}

// CloseFailed closes the connections of the servers of c that failed
// (FailedServers), leaving the others open; on a single server it closes
// c.
func (c *Conn) CloseFailed() error {
	if len(c.parts) == 0 {
		return c.Close()
	}
	return c.closeParts(true)
}

// routeTools names every tool of every server as the model is shown it:
// its own name where no other server lists that name, else the server's
// name, Separator and its own name. The order is the servers' (by name),
// then each server's own.
func (c *Conn) routeTools() {
	count := map[string]int{}
	for _, p := range c.parts {
		seen := map[string]bool{}
		for _, t := range p.tools {
			if !seen[t.Name] {
				seen[t.Name] = true
				count[t.Name]++
			}
		}
	}
	c.route = map[string]route{}
	c.listed = nil
	for i, p := range c.parts {
		for _, t := range p.tools {
			name := t.Name
			if count[name] > 1 {
				name = p.name + Separator + t.Name
			}
			shown := *t
			shown.Name = name
			c.listed = append(c.listed, &shown)
			if _, dup := c.route[name]; !dup { // a duplicate is refused by whoever lists the tools
				c.route[name] = route{part: i, tool: t.Name}
			}
		}
	}
}

// Servers returns the names of the servers a connection to several
// reaches, in order, or nil for a single server.
func (c *Conn) Servers() []string {
	var names []string
	for _, p := range c.parts {
		names = append(names, p.name)
	}
	return names
}

// ServerOf returns, for a tool name as the model is shown it, the server
// that serves it and the tool's name on that server; both are "" for a
// single server and for a name no server lists.
func (c *Conn) ServerOf(name string) (server, tool string) {
	r, ok := c.route[name]
	if !ok {
		return "", ""
	}
	return c.parts[r.part].name, r.tool
}

// ServerInfo returns the name and version each server of a connection to
// several reported when it connected, by server name (nil for a single
// server).
func (c *Conn) ServerInfo() map[string]*mcp.Implementation {
	if len(c.parts) == 0 {
		return nil
	}
	out := map[string]*mcp.Implementation{}
	for _, p := range c.parts {
		if init := p.conn.Session.InitializeResult(); init != nil {
			out[p.name] = init.ServerInfo
		}
	}
	return out
}

// CallTool calls a tool by the name the model is shown: on a single
// server, that tool; on several, the tool of the server it is routed to,
// under its own name (a harness call may also name it SERVER/TOOL). A
// name no server lists is refused as a method not found, as a server
// would refuse it.
func (c *Conn) CallTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	if len(c.parts) == 0 {
		return c.callTool(ctx, params)
	}
	r, ok := c.route[params.Name]
	if !ok {
		r, ok = c.routeOwn(params.Name)
	}
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("unknown tool %q: no server lists it", params.Name)}
	}
	p := *params
	p.Name = r.tool
	pt := c.parts[r.part]
	out, err := pt.conn.callTool(ctx, &p)
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			if we.Code != jsonrpc.CodeInvalidParams && we.Code != jsonrpc.CodeMethodNotFound {
				pt.failed.Store(true) // the server failing, not refusing the call
			}
			return nil, err // the server's own answer, kept as it is
		}
		pt.failed.Store(true)
		return nil, fmt.Errorf("server %s: %w", pt.name, err)
	}
	return out, nil
}

// routeOwn routes a name written SERVER/TOOL, as a suite names a tool
// of one of several servers, to that server's tool of that name.
func (c *Conn) routeOwn(name string) (route, bool) {
	server, tool, ok := strings.Cut(name, "/")
	if !ok {
		return route{}, false
	}
	for i, p := range c.parts {
		if p.name != server {
			continue
		}
		for _, t := range p.tools {
			if t.Name == tool {
				return route{part: i, tool: tool}, true
			}
		}
	}
	return route{}, false
}

// partsStderr returns the last stderr lines of every stdio server of a
// connection to several, each line prefixed with its server's name.
func (c *Conn) partsStderr() []string {
	var lines []string
	for _, p := range c.parts {
		for _, l := range p.conn.Stderr() {
			lines = append(lines, p.name+": "+l)
		}
	}
	return lines
}

// closeParts closes every server's connection, or with failedOnly those
// of the servers that failed alone.
func (c *Conn) closeParts(failedOnly bool) error {
	var errs []error
	for _, p := range c.parts {
		if failedOnly && !p.failed.Load() {
			continue
		}
		if err := p.conn.Close(); err != nil {
			errs = append(errs, fmt.Errorf("server %s: %w", p.name, err))
		}
	}
	return errors.Join(errs...)
}

// partsAlive reports whether every server's process is still running.
func (c *Conn) partsAlive() bool {
	for _, p := range c.parts {
		if !p.conn.Alive() {
			return false
		}
	}
	return true
}

// serverSecrets adds every server's secrets to k.
func (c Config) serverSecrets(k *redact.Known, getenv func(string) string) {
	for _, s := range c.Servers {
		for _, v := range s.Config.Secrets(getenv).Values() {
			k.Add(v)
		}
	}
}
