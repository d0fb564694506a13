package target

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config says how to reach a target.
type Config struct {
	// Spec is "builtin:NAME", "stdio:CMD ARGS..." or an http(s) URL.
	Spec string `yaml:"spec"`
	// Env adds environment variables to a stdio command. Values may name
	// variables of mcpeval's own environment as ${VAR}. Every value, once
	// expanded, is treated as a secret: it is scrubbed from what a run
	// writes.
	Env map[string]string `yaml:"env,omitempty"`
	// InheritEnv gives a stdio command the whole of mcpeval's environment,
	// provider keys and CI tokens included. It is unsafe: a server under
	// evaluation can read and send on every secret mcpeval holds. Without
	// it a stdio command gets only PATH, HOME, USER, LOGNAME, the locale
	// (LANG, LANGUAGE, LC_*), TZ, TMPDIR (and the few variables Windows
	// programs need to start), plus Env.
	InheritEnv bool `yaml:"inherit_env,omitempty"`
	// ConnectTimeout bounds each step of connecting: starting the server
	// and the initialize handshake in Dial, and listing its tools in Tools
	// (default DefaultConnectTimeout).
	ConnectTimeout time.Duration `yaml:"-"`
	// Dir is a stdio command's working directory.
	Dir string `yaml:"dir,omitempty"`
	// Headers are sent with every HTTP request; values may name variables of
	// the environment as ${VAR} (a bearer token, say), and are never
	// recorded.
	Headers map[string]string `yaml:"headers,omitempty"`
	// OAuth authorizes mcpeval to an HTTP target protected by OAuth 2.1
	// (see OAuth); nil sends only Headers.
	OAuth *OAuth `yaml:"oauth,omitempty"`
	// Writable serves a builtin target's write tools too. An evaluation is
	// always read-only; this is for serve-target --writable.
	Writable bool `yaml:"-"`
	// StderrLines is how many of a stdio command's last stderr lines are
	// kept (default 50).
	StderrLines int `yaml:"-"`
	// Builtins are the in-process servers a builtin:NAME spec may name.
	// The mcpeval command supplies its embedded targets; a library caller
	// supplies its own (nil: no builtin target can be reached).
	Builtins Builtins `yaml:"-"`
	// ClientVersion is the version mcpeval reports to servers when it
	// connects (default "dev").
	ClientVersion string `yaml:"-"`
	// Servers are the servers of a target made of several (see Several),
	// whose Spec is then "servers:NAME,NAME...".
	Servers []Server `yaml:"-"`

	// Notifications and roots (notify.go).

	// Roots are declared to the server as the client's roots (roots/list);
	// nil declares none.
	Roots []Root `yaml:"-"`
	// LogLevel is the level the server is asked to log at once connected
	// (logging/setLevel): one of LogLevels; "" or "off" asks nothing.
	LogLevel string `yaml:"-"`
}

// streamRetries is how many times a dropped event stream is reconnected
// without progress before the connection fails: the first after the
// server's retry field, the next after the go-sdk's backoff of 1.5 to 3
// seconds.
const streamRetries = 2

// DefaultConnectTimeout is how long connecting to a target may take when
// Config.ConnectTimeout is zero.
const DefaultConnectTimeout = 30 * time.Second

// Builtins maps a builtin target's name to a function that returns a
// fresh server each time a connection is made; writable serves its write
// tools too.
type Builtins map[string]func(writable bool) (*mcp.Server, error)

// Names lists the builtin targets, sorted.
func (b Builtins) Names() []string {
	return slices.Sorted(maps.Keys(b))
}

// Server returns a fresh server of the builtin target name.
func (b Builtins) Server(name string, writable bool) (*mcp.Server, error) {
	f, ok := b[name]
	if !ok {
		return nil, fmt.Errorf("no builtin target %q (have %s)", name, strings.Join(b.Names(), ", "))
	}
	return f(writable)
}

// Kind returns "builtin", "stdio" or "http".
func (c Config) Kind() string {
	switch {
	case strings.HasPrefix(c.Spec, "builtin:"):
		return "builtin"
	case strings.HasPrefix(c.Spec, "stdio:"):
		return "stdio"
	case strings.HasPrefix(c.Spec, "http://"), strings.HasPrefix(c.Spec, "https://"):
		return "http"
	case strings.HasPrefix(c.Spec, serversPrefix):
		return "servers"
	}
	return ""
}

// Check reports a malformed spec before anything is started.
func (c Config) Check() error {
	switch c.Kind() {
	case "builtin":
		name := strings.TrimPrefix(c.Spec, "builtin:")
		if _, ok := c.Builtins[name]; !ok {
			return fmt.Errorf("target %q: no builtin target %q (have %s)", c.Spec, name, strings.Join(c.Builtins.Names(), ", "))
		}
	case "stdio":
		args, err := SplitCommand(strings.TrimPrefix(c.Spec, "stdio:"))
		if err != nil {
			return fmt.Errorf("target %q: %w", c.Shown(), err)
		}
		if len(args) == 0 {
			return fmt.Errorf("target %q: no command after the stdio: prefix", c.Shown())
		}
	case "http":
		u, err := url.Parse(c.Spec)
		if err != nil {
			return fmt.Errorf("target %q: not a URL", c.Shown())
		}
		if u.Host == "" {
			return fmt.Errorf("target %q: no host: want %s://HOST[:PORT]/PATH", c.Shown(), u.Scheme)
		}
	case "servers":
		return c.checkServers()
	default:
		return fmt.Errorf("target %q: want builtin:NAME, stdio:COMMAND ARGS... or an http(s):// URL", c.Shown())
	}
	if c.OAuth != nil {
		if c.Kind() != "http" {
			return fmt.Errorf("target %q: oauth is for http(s) targets", c.Shown())
		}
		if err := c.OAuth.check(); err != nil {
			return fmt.Errorf("target %q: %w", c.Shown(), err)
		}
	}
	if err := c.checkNotify(); err != nil {
		return fmt.Errorf("target %q: %w", c.Shown(), err)
	}
	if c.ConnectTimeout < 0 {
		return fmt.Errorf("target %q: connect timeout %s: want a positive duration", c.Shown(), c.ConnectTimeout)
	}
	return nil
}

// Shown returns the spec as a message to the operator may show it: every
// credential removed (a URL's user info and credential parameters, a
// --password or --token flag's value in either form), the endpoint kept.
func (c Config) Shown() string {
	if c.Kind() == "servers" {
		return c.describeServers(Config.Shown)
	}
	return redact.Secrets(c.Spec)
}

// Describe returns the spec as a record may hold it: an HTTP target as
// its scheme only ("https://[endpoint]": records never hold the endpoint,
// whose host, path or query may name a deployment or a tenant), a stdio
// command with any credential in its arguments removed, and no header or
// environment value.
func (c Config) Describe() string {
	if c.Kind() == "servers" {
		return c.describeServers(Config.Describe)
	}
	if c.Kind() != "http" {
		return redact.Secrets(c.Spec)
	}
	u, err := url.Parse(c.Spec)
	if err != nil {
		return "http(unparseable)"
	}
	return u.Scheme + "://[endpoint]"
}

// Conn is a live session with a target.
type Conn struct {
	// Session is the MCP client session.
	Session *mcp.ClientSession
	stderr  *Tail
	cmd     *exec.Cmd
	stdio   *commandTransport // a stdio server's transport
	closers []func() error
	// timeout bounds listing the tools; secrets are scrubbed from errors.
	timeout time.Duration
	secrets *redact.Known
	// asked routes a server's requests to the call in flight (serverreq.go).
	asked asked
	// parts, route and listed are set on a connection to several servers
	// (multi.go): each server's connection, where each tool the model is
	// shown is served, and those tools as the model is shown them.
	parts  []*part
	route  map[string]route
	listed []*mcp.Tool
	// watch receives the server's notifications (notify.go).
	watch *watch
}

// Dial connects to the target and completes MCP initialization.
func Dial(ctx context.Context, cfg Config) (*Conn, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Kind() == "servers" {
		return dialServers(ctx, cfg)
	}
	version := cfg.ClientVersion
	if version == "" {
		version = "dev"
	}
	c := &Conn{secrets: cfg.Secrets(nil), watch: &watch{logLevel: cfg.LogLevel}}
	opts := clientOptions(c.watch) // notifications and roots (notify.go)
	// What a server asks during a call: sampling and elicitation (serverreq.go).
	c.answerRequests(opts)
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpeval", Version: version}, opts)
	addRoots(client, cfg)
	c.secrets.AddEnviron(os.Environ()) // provider keys, should a server echo them
	var transport mcp.Transport
	switch cfg.Kind() {
	case "builtin":
		name := strings.TrimPrefix(cfg.Spec, "builtin:")
		server, err := cfg.Builtins.Server(name, cfg.Writable)
		if err != nil {
			return nil, fmt.Errorf("starting builtin target %s: %w", name, err)
		}
		ct, st := newMemoryTransports() // transport.go: no 32 KiB buffer per message
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			return nil, fmt.Errorf("starting builtin target %s: %w", name, err)
		}
		c.closers = append(c.closers, ss.Close)
		transport = c.watch.wire(ct) // notify.go
	case "stdio":
		args, _ := SplitCommand(strings.TrimPrefix(cfg.Spec, "stdio:"))
		cmd := exec.Command(args[0], args[1:]...)
		detach(cmd)
		cmd.Dir = cfg.Dir
		cmd.Env = cfg.Environ(os.Environ(), os.Getenv)
		// A child that keeps the server's stderr open must not keep Close
		// waiting once the server itself has gone.
		cmd.WaitDelay = time.Second
		n := cfg.StderrLines
		if n <= 0 {
			n = 50
		}
		c.stderr = NewTail(n, 4096)
		cmd.Stderr = c.stderr
		c.cmd = cmd
		c.stdio = &commandTransport{cmd: cmd, terminate: 2 * time.Second} // transport_stdio.go
		transport = c.watch.wire(c.stdio)                                 // notify.go: notifications seen as read
	case "http":
		headers := http.Header{}
		for k, v := range cfg.Headers {
			headers.Set(k, os.Expand(v, os.Getenv))
		}
		hc, err := httpClient(cfg.Spec, headers)
		if err != nil {
			return nil, err
		}
		oauth, err := oauthFor(cfg)
		if err != nil {
			return nil, err
		}
		// A dropped event stream is resumed (after the server's retry,
		// with Last-Event-ID), but a server that has gone is given up on
		// after streamRetries tries, seconds later, not at the call's
		// deadline. The standalone stream carries what the server sends
		// unasked; a request mcpeval declared no capability for is
		// answered with an error there at once.
		transport = &mcp.StreamableClientTransport{Endpoint: cfg.Spec, HTTPClient: hc, MaxRetries: streamRetries, OAuthHandler: oauth}
	}
	c.timeout = cfg.connectTimeout()
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	session, err := client.Connect(cctx, transport, nil)
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			err = &StalledError{Step: "initialize", After: c.timeout}
		}
		c.Close()
		return nil, c.wrap(fmt.Errorf("connecting to target %s: %w", cfg.Describe(), c.secrets.Error(err)))
	}
	c.Session = session
	if err := setLogLevel(cctx, session, cfg); err != nil {
		c.Close()
		return nil, c.wrap(fmt.Errorf("connecting to target %s: %w", cfg.Describe(), c.secrets.Error(err)))
	}
	return c, nil
}

func (c Config) connectTimeout() time.Duration {
	if c.ConnectTimeout > 0 {
		return c.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// StalledError says a server did not answer a step of connecting
// ("initialize" or "tools/list") within the connect timeout.
type StalledError struct {
	Step  string
	After time.Duration
}

func (e *StalledError) Error() string {
	return fmt.Sprintf("the server did not answer %s within %s (the connect timeout)", e.Step, e.After)
}

// passedEnv are the variables of mcpeval's environment a stdio server gets
// without InheritEnv: what a program needs to find its commands, home,
// locale and scratch space. None holds a credential.
var passedEnv = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "LANG": true, "LANGUAGE": true,
	"TZ": true, "TMPDIR": true,
	// What Windows programs need to start.
	"SYSTEMROOT": true, "SYSTEMDRIVE": true, "WINDIR": true, "COMSPEC": true, "PATHEXT": true,
	"TEMP": true, "TMP": true, "USERPROFILE": true, "APPDATA": true, "LOCALAPPDATA": true, "PROGRAMDATA": true,
}

// Environ returns the environment a stdio command is started with, given
// mcpeval's own (as os.Environ returns it) and getenv to expand Env's
// ${VAR} references: the variables of parent that passedEnv names (all of
// them with InheritEnv), then Env, sorted by name.
func (c Config) Environ(parent []string, getenv func(string) string) []string {
	var env []string
	for _, kv := range parent {
		k, _, _ := strings.Cut(kv, "=")
		if _, set := c.Env[k]; set {
			continue
		}
		if c.InheritEnv || passedEnv[strings.ToUpper(k)] || strings.HasPrefix(k, "LC_") {
			env = append(env, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		env = append(env, k+"="+os.Expand(c.Env[k], getenv))
	}
	return env
}

// Secrets returns a registry of the secret values the configuration
// holds once expanded with getenv (nil: os.Getenv): every Env value, every
// header value and every ${VAR} they name, and the credentials in the
// spec (a --password flag's value in either form, a URL's password and
// credential parameters).
func (c Config) Secrets(getenv func(string) string) *redact.Known {
	k := &redact.Known{}
	switch c.Kind() {
	case "stdio":
		args, _ := SplitCommand(strings.TrimPrefix(c.Spec, "stdio:"))
		k.AddArgs(args)
	case "http":
		k.AddArgs([]string{c.Spec})
	case "servers":
		c.serverSecrets(k, getenv)
	}
	add := func(v string) { // its value once expanded, and that of every ${VAR} it names
		k.AddExpanded(v, getenv)
		k.Add(os.Expand(v, getenvOr(getenv)))
	}
	if c.OAuth != nil {
		add(c.OAuth.ClientSecret)
		add(c.OAuth.IdPClientSecret)
		c.OAuth.addIDToken(k, getenvOr(getenv))
	}
	for _, m := range []map[string]string{c.Env, c.Headers} {
		for _, v := range m {
			add(v)
		}
	}
	return k
}

func getenvOr(getenv func(string) string) func(string) string {
	if getenv == nil {
		return os.Getenv
	}
	return getenv
}

// wrap adds the server's last stderr lines to err, when there are any.
func (c *Conn) wrap(err error) error {
	if c.stderr == nil && len(c.parts) == 0 {
		return err
	}
	lines := c.Stderr()
	if len(lines) == 0 {
		return err
	}
	return &StderrError{Err: err, Stderr: lines}
}

// WithStderr adds a stdio server's last stderr lines to err, when there
// are any, and scrubs the secrets the target's configuration holds from
// its text.
func (c *Conn) WithStderr(err error) error {
	if err == nil {
		return nil
	}
	return c.wrap(c.secrets.Error(err))
}

// StderrError is an error of a stdio server, with its last stderr lines.
type StderrError struct {
	Err    error
	Stderr []string
}

func (e *StderrError) Error() string {
	return fmt.Sprintf("%v (server stderr: %s)", e.Err, strings.Join(e.Stderr, " | "))
}

func (e *StderrError) Unwrap() error { return e.Err }

// Stderr returns a stdio server's last stderr lines (nil for other
// kinds), with every credential the target's configuration holds, and
// every one recognised by its shape, replaced by a marker: a server that
// echoes its arguments or environment does not get them shown.
func (c *Conn) Stderr() []string {
	if len(c.parts) > 0 {
		return c.partsStderr()
	}
	if c.stderr == nil {
		return nil
	}
	lines := c.stderr.Lines()
	for i, l := range lines {
		lines[i] = c.secrets.Scrub(redact.Secrets(l))
	}
	return lines
}

// Alive reports whether a stdio server's process is still running (always
// true for other kinds).
func (c *Conn) Alive() bool {
	if len(c.parts) > 0 {
		return c.partsAlive()
	}
	if c.cmd == nil || c.cmd.Process == nil {
		return true
	}
	return c.cmd.ProcessState == nil && c.Session != nil && c.Session.Ping(context.Background(), nil) == nil
}

// Tools lists every tool the server offers, following pagination.
// Listing all of them takes at most the connect timeout. The tools of a
// target made of several servers were listed when it connected; they are
// named as the model is shown them (see ServerOf).
func (c *Conn) Tools(ctx context.Context) ([]*mcp.Tool, error) {
	if len(c.parts) > 0 {
		return append([]*mcp.Tool(nil), c.listed...), nil
	}
	timeout := c.timeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var tools []*mcp.Tool
	for t, err := range c.Session.Tools(lctx, nil) {
		if err != nil {
			if lctx.Err() != nil && ctx.Err() == nil {
				err = &StalledError{Step: "tools/list", After: timeout}
			}
			return nil, c.wrap(fmt.Errorf("listing tools: %w", c.secrets.Error(err)))
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// Close ends the session and stops a stdio server: it closes the
// server's stdin, waits a moment for it to exit, then signals it, and
// finally kills whatever is left of its process group (children a
// wrapper such as npx or uv started).
func (c *Conn) Close() error {
	if len(c.parts) > 0 {
		return c.closeParts(false)
	}
	var errs []error
	if c.Session != nil {
		if err := c.Session.Close(); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	for _, f := range c.closers {
		f()
	}
	if c.cmd != nil && c.cmd.Process != nil {
		killGroup(c.cmd.Process.Pid)
	}
	if c.stdio != nil && c.stdio.unwatch != nil {
		c.stdio.unwatch()
	}
	return errors.Join(errs...)
}

// SplitCommand splits a command line into words as a POSIX shell would for
// plain words, single and double quotes and backslash escapes; it expands
// nothing.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' in command")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`, s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " in command`)
			}
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
