package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// MCPJSON is the configuration file desktop clients and editors keep their
// servers in (Claude Desktop's and Cursor's mcpServers, VS Code's servers):
// each server a command with args, env and cwd (stdio) or a url with
// headers (streamable HTTP). Fields mcpeval has no use for (disabled,
// autoApprove, inputs, ...) are ignored.
type MCPJSON struct {
	// Servers are the servers by name, from mcpServers or servers.
	Servers map[string]MCPServer
	// Path is the file read.
	Path string
	data []byte // the file's text, to place a server's line
}

// MCPServer is one server of an mcp.json file.
type MCPServer struct {
	// Type is "stdio", "http" (or "streamable-http", "streamableHttp") or
	// empty, when the command or url says which; "sse" is refused.
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the command's working directory, relative to the file.
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// MaxMCPJSONSize is the largest mcp.json file read.
const MaxMCPJSONSize = 1 << 20

// IsMCPJSONRef reports whether spec names a server of an mcp.json file
// ("mcp.json", "path/to/mcp.json#name", any file ending in .json) rather
// than being a builtin, stdio or http spec.
func IsMCPJSONRef(spec string) bool {
	if (Config{Spec: spec}).Kind() != "" {
		return false
	}
	file, _ := SplitMCPJSONRef(spec)
	return strings.HasSuffix(strings.ToLower(file), ".json")
}

// SplitMCPJSONRef splits "FILE#NAME" at its last #; name is "" when there
// is none.
func SplitMCPJSONRef(spec string) (file, name string) {
	if i := strings.LastIndexByte(spec, '#'); i >= 0 {
		return spec[:i], spec[i+1:]
	}
	return spec, ""
}

// ReadMCPJSON reads the mcp.json file at path. A malformed file's error
// is located as path:line:col.
func ReadMCPJSON(path string) (*MCPJSON, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading mcp.json: %w", err)
	}
	if st.Size() > MaxMCPJSONSize {
		return nil, fmt.Errorf("reading mcp.json %s: %d bytes, more than the %d an mcp.json may have", path, st.Size(), MaxMCPJSONSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading mcp.json: %w", err)
	}
	return ParseMCPJSON(path, data)
}

// ParseMCPJSON parses data, the mcp.json file at path.
func ParseMCPJSON(path string, data []byte) (*MCPJSON, error) {
	var file struct {
		MCPServers map[string]MCPServer `json:"mcpServers"`
		Servers    map[string]MCPServer `json:"servers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, jsonError(path, data, err)
	}
	servers := file.MCPServers
	if servers == nil {
		servers = file.Servers
	} else {
		for k, v := range file.Servers {
			if _, dup := servers[k]; !dup {
				servers[k] = v
			}
		}
	}
	if len(servers) == 0 {
		return nil, fmt.Errorf("%s:1:1: no servers: want {\"mcpServers\": {\"NAME\": {\"command\": ...} or {\"url\": ...}}}", path)
	}
	return &MCPJSON{Servers: servers, Path: path, data: data}, nil
}

// jsonError locates a JSON decoding error as path:line:col from the
// offset the decoder gives.
func jsonError(path string, data []byte, err error) error {
	var off int64 = -1
	msg := err.Error()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		msg = fmt.Sprintf("%s is a JSON %s, want %s", strings.TrimPrefix(te.Field, "mcpServers."), te.Value, friendlyGoType(te.Type.String()))
	}
	if off < 0 {
		return fmt.Errorf("%s: %s", path, msg)
	}
	line, col := lineCol(data, off)
	return fmt.Errorf("%s:%d:%d: %s", path, line, col, msg)
}

func friendlyGoType(t string) string {
	switch {
	case strings.HasPrefix(t, "map["):
		return "an object"
	case strings.HasPrefix(t, "[]"):
		return "an array of strings"
	case t == "string":
		return "a string"
	case strings.Contains(t, "MCPServer"):
		return "an object"
	}
	return t
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

// Names returns the servers' names, sorted.
func (f *MCPJSON) Names() []string {
	return slices.Sorted(maps.Keys(f.Servers))
}

// Target returns the configuration that reaches server name: the only
// server when name is "" and the file holds one. A command or cwd that is
// a relative path is taken relative to the file, and a command's working
// directory is the file's when it sets no cwd. ${VAR} in env and header
// values is expanded when connecting, as a suite's are; their values are
// never recorded. ${VAR} elsewhere is refused: a command's arguments and a
// URL are shown in records and messages.
func (f *MCPJSON) Target(name string) (Config, error) {
	s, at, err := f.server(name)
	if err != nil {
		return Config{}, err
	}
	kind, err := s.kind(at)
	if err != nil {
		return Config{}, err
	}
	if err := s.refuseVars(at); err != nil {
		return Config{}, err
	}
	base, err := filepath.Abs(filepath.Dir(f.Path))
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", at, err)
	}
	if kind == "stdio" {
		return s.stdioConfig(base, at)
	}
	return s.httpConfig(at)
}

// server returns server name, the only one when name is "", and where it
// is in the file for messages.
func (f *MCPJSON) server(name string) (MCPServer, string, error) {
	names := f.Names()
	if name == "" {
		if len(names) != 1 {
			return MCPServer{}, "", fmt.Errorf("%s holds %d servers (%s): name one as %s#NAME", f.Path, len(names), shownNames(names), f.Path)
		}
		name = names[0]
	}
	s, ok := f.Servers[name]
	if !ok {
		return MCPServer{}, "", fmt.Errorf("%s has no server %q (have %s)", f.Path, name, shownNames(names))
	}
	at := fmt.Sprintf("%s: server %q", f.Path, name)
	if line := f.lineOf(name); line > 0 {
		at = fmt.Sprintf("%s:%d: server %q", f.Path, line, name)
	}
	return s, at, nil
}

// kind returns the server's transport, stdio or http: its type, or
// without one whichever of a command and a url it has.
func (s MCPServer) kind(at string) (string, error) {
	switch s.Type {
	case "":
		switch {
		case s.Command != "" && s.URL != "":
			return "", fmt.Errorf("%s has both a command and a url: want one (or a type)", at)
		case s.Command != "":
			return "stdio", nil
		case s.URL != "":
			return "http", nil
		default:
			return "", fmt.Errorf("%s has neither a command (stdio) nor a url (streamable HTTP)", at)
		}
	case "stdio":
		return "stdio", nil
	case "http", "streamable-http", "streamableHttp", "streamable_http":
		return "http", nil
	case "sse":
		return "", fmt.Errorf("%s is of type sse: mcpeval speaks streamable HTTP (type http) and stdio, not the older HTTP+SSE transport", at)
	default:
		return "", fmt.Errorf("%s: type %q: want stdio or http", at, s.Type)
	}
}

// refuseVars refuses ${VAR} outside env and headers: a command, its
// arguments, a cwd and a URL are shown in records and messages.
func (s MCPServer) refuseVars(at string) error {
	for what, v := range map[string]string{"command": s.Command, "url": s.URL, "cwd": s.Cwd} {
		if hasVar(v) {
			return varError(at, what, v)
		}
	}
	for i, a := range s.Args {
		if hasVar(a) {
			return varError(at, fmt.Sprintf("args[%d]", i), a)
		}
	}
	return nil
}

// stdioConfig is the configuration of a stdio server: a command path and
// a cwd relative to base, the file's directory, which is also the working
// directory when the server sets no cwd.
func (s MCPServer) stdioConfig(base, at string) (Config, error) {
	if s.Command == "" {
		return Config{}, fmt.Errorf("%s is of type stdio but has no command", at)
	}
	if len(s.Headers) > 0 {
		return Config{}, fmt.Errorf("%s: headers go with a url, not a command", at)
	}
	cmd := s.Command
	if strings.ContainsRune(cmd, filepath.Separator) || strings.ContainsRune(cmd, '/') {
		if !filepath.IsAbs(cmd) {
			cmd = filepath.Join(base, cmd)
		}
	}
	dir := base
	if s.Cwd != "" {
		dir = s.Cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
	}
	words := append([]string{cmd}, s.Args...)
	for i, w := range words {
		words[i] = QuoteWord(w)
	}
	return Config{Spec: "stdio:" + strings.Join(words, " "), Env: s.Env, Dir: dir}, nil
}

// httpConfig is the configuration of a streamable HTTP server.
func (s MCPServer) httpConfig(at string) (Config, error) {
	if s.URL == "" {
		return Config{}, fmt.Errorf("%s is of type http but has no url", at)
	}
	if len(s.Env) > 0 || s.Cwd != "" || len(s.Args) > 0 {
		return Config{}, fmt.Errorf("%s: args, env and cwd go with a command, not a url", at)
	}
	c := Config{Spec: s.URL, Headers: s.Headers}
	if c.Kind() != "http" {
		return Config{}, fmt.Errorf("%s: url %q: want an http:// or https:// URL", at, c.Shown())
	}
	return c, nil
}

// shownNames lists server names for a message: a name that is not plain
// printable text is quoted, so a file cannot write to the terminal.
func shownNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if n == "" || strings.ContainsFunc(n, func(r rune) bool { return !unicode.IsPrint(r) || r == ',' || r == ' ' }) {
			out[i] = strconv.Quote(n)
		}
	}
	return strings.Join(out, ", ")
}

// FromMCPJSON reads the mcp.json file at path and returns the
// configuration of its server name (see MCPJSON.Target).
func FromMCPJSON(path, name string) (Config, error) {
	f, err := ReadMCPJSON(path)
	if err != nil {
		return Config{}, err
	}
	return f.Target(name)
}

// lineOf returns the line of server name's key in the file, or 0.
func (f *MCPJSON) lineOf(name string) int {
	data := f.data
	key, _ := json.Marshal(name)
	re := regexp.MustCompile(regexp.QuoteMeta(string(key)) + `\s*:\s*\{`)
	loc := re.FindIndex(data)
	if loc == nil {
		return 0
	}
	line, _ := lineCol(data, int64(loc[0]))
	return line
}

var varRef = regexp.MustCompile(`\$\{[^}]*\}`)

func hasVar(s string) bool { return varRef.MatchString(s) }

func varError(at, what, v string) error {
	return fmt.Errorf("%s: %s holds %s: mcpeval expands ${VAR} only in env and headers, whose values are never recorded; pass the value through env (or a header) instead", at, what, varRef.FindString(v))
}

// QuoteWord quotes w for a stdio: spec, so that SplitCommand gives it back
// as one word.
func QuoteWord(w string) string {
	if w != "" && !strings.ContainsFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r))
	}) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
