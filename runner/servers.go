package runner

import (
	"encoding/json"
	"fmt"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServersKey is the key of record.Header.Extra under which a run of a
// suite with several servers (targets:) records them: a JSON list of
// objects with the server's name, its target as a record may describe it,
// and the name and version it reported.
const ServersKey = "servers"

// resolveServers, on a connection to several servers, makes the run's
// suite name every tool as the model is shown it (SERVER/TOOL becomes
// TOOL, or SERVER__TOOL where several servers list TOOL), so that what
// follows compares names alone. A bare name several servers list stops
// the run, at the place the suite writes it.
func (r *run) resolveServers(conn *target.Conn, listed []*mcp.Tool) error {
	if len(conn.Servers()) == 0 {
		return nil
	}
	s, err := r.cfg.Suite.ResolveTools(servedTools(conn, listed))
	if err != nil {
		return fmt.Errorf("reading the suite's tool names against its servers (before any model request):\n%w", err)
	}
	r.cfg.Suite = s
	return nil
}

// servedTools returns the tools listed, by the name the model is shown,
// with the server of each.
func servedTools(conn *target.Conn, listed []*mcp.Tool) []suite.ServedTool {
	out := make([]suite.ServedTool, 0, len(listed))
	for _, t := range listed {
		server, tool := conn.ServerOf(t.Name)
		out = append(out, suite.ServedTool{Name: t.Name, Server: server, Tool: tool})
	}
	return out
}

// serve sets on a listed tool the server that lists it, and its name
// there when the model is shown another.
func serve(conn *target.Conn, t *record.Tool) {
	server, tool := conn.ServerOf(t.Name)
	t.Server = server
	if tool != t.Name {
		t.ServerTool = tool
	}
}

// callServer returns the server a call of tool name is routed to ("" on
// a single server, or for a tool no server lists).
func callServer(conn *target.Conn, name string) string {
	if conn == nil {
		return ""
	}
	server, _ := conn.ServerOf(name)
	return server
}

// recordServers writes into the header, under ServersKey, each server of
// a connection to several: its name, its target as a record may describe
// it, and what it reported of itself; the header's own Target.Server,
// which names one server, is left empty.
func (r *run) recordServers(conn *target.Conn) {
	names := conn.Servers()
	if len(names) == 0 {
		return
	}
	r.header.Target.Server = record.Build{} // not the first server's alone: each one's is below
	info := conn.ServerInfo()
	type server struct {
		Name   string        `json:"name"`
		Target string        `json:"target"`
		Server *record.Build `json:"server,omitempty"`
	}
	var out []server
	for _, s := range r.cfg.Target.Servers {
		sv := server{Name: s.Name, Target: s.Config.Describe()}
		if im := info[s.Name]; im != nil {
			sv.Server = &record.Build{Name: im.Name, Version: im.Version}
		}
		out = append(out, sv)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	if r.header.Extra == nil {
		r.header.Extra = map[string]json.RawMessage{}
	}
	r.header.Extra[ServersKey] = b
}

// InspectedServer is one server of a target made of several, as Validate
// found it.
type InspectedServer struct {
	// Name is the server's name in the suite.
	Name string
	// Target is the server's target as a record may describe it.
	Target string
	// Server is the name and version the server reported.
	Server record.Build
	// Tools counts the server's tools the model would be shown.
	Tools int
}

// inspectServers returns, on a connection to several servers, each of
// them with the tools of r.shown it serves; nil on a single server.
func (r *run) inspectServers(conn *target.Conn) []InspectedServer {
	if len(conn.Servers()) == 0 {
		return nil
	}
	info := conn.ServerInfo()
	var out []InspectedServer
	for _, s := range r.cfg.Target.Servers {
		is := InspectedServer{Name: s.Name, Target: s.Config.Describe()}
		if im := info[s.Name]; im != nil {
			is.Server = record.Build{Name: im.Name, Version: im.Version}
		}
		for _, t := range r.shown {
			if t.Server == s.Name {
				is.Tools++
			}
		}
		out = append(out, is)
	}
	return out
}
