package actions

import (
	"encoding/json"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Scoring a run on a surface of its suite (see suite.Surface). The cases
// name canonical actions; a run on a mapped surface recorded the calls the
// model made to the surface's own tools. Before anything is scored, each
// recorded call is read back to the canonical action it is (the map entry
// whose tool it called with every fixed argument present), and the run's
// tool definitions become the canonical ones the header recorded, so one
// corpus and one key score every surface. A call that is no canonical
// action (a meta-tool called with an action it does not have) stays as it
// was: no step is reached by it, and a change it made counts as one no
// step asked for.

// OnCanonical returns header h and attempt a as they read on the canonical
// surface: h's tools are the canonical definitions, a's calls canonical
// actions. A run on the canonical surface, or of a suite without surfaces,
// is returned as it is. Neither h nor a is changed.
func OnCanonical(h *record.Header, a *record.Attempt) (*record.Header, *record.Attempt) {
	if h != nil && a != nil && h.Surface != nil && h.Surface.Kind == suite.SurfaceSearch {
		c := *h
		c.Surface = &record.Surface{Name: h.Surface.Name}
		return &c, searchedAttempt(a)
	}
	if h == nil || a == nil || h.Surface == nil || len(h.Surface.Map) == 0 {
		return h, a
	}
	sf := h.Surface
	return canonicalHeader(h), canonicalAttempt(sf, a)
}

// canonicalHeader is h with the canonical tool definitions in place of the
// surface's, and the surface's map left out, so that reading it back again
// changes nothing.
func canonicalHeader(h *record.Header) *record.Header {
	c := *h
	c.Tools = h.Surface.Canonical
	c.ServerTools = nil
	c.Surface = &record.Surface{Name: h.Surface.Name}
	return &c
}

// canonicalAttempt is a with every call read back to its canonical action.
func canonicalAttempt(rs *record.Surface, a *record.Attempt) *record.Attempt {
	sf := &suite.Surface{Name: rs.Name, Map: map[string]suite.SurfaceCall{}}
	for canon, to := range rs.Map {
		sf.Map[canon] = suite.SurfaceCall{Tool: to.Tool, Args: to.Args, Under: to.Under}
	}
	c := *a
	c.Turns = make([]record.Turn, len(a.Turns))
	for i, t := range a.Turns {
		t.Calls = append([]record.Call(nil), t.Calls...)
		for j := range t.Calls {
			t.Calls[j] = canonicalCall(sf, t.Calls[j])
		}
		c.Turns[i] = t
	}
	return &c
}

// canonicalCall reads call back to the canonical action it is (see
// suite.Surface.Back). A call that is no canonical action is returned as
// it is.
func canonicalCall(sf *suite.Surface, call record.Call) record.Call {
	var args map[string]any
	if len(call.Args) > 0 && json.Unmarshal(call.Args, &args) != nil {
		return call // not an object: no action's arguments
	}
	canon, cargs, ok := sf.Back(call.Name, args)
	if !ok {
		return call
	}
	if cargs == nil {
		cargs = map[string]any{}
	}
	b, err := json.Marshal(cargs)
	if err != nil {
		return call
	}
	call.Name, call.Args = canon, b
	return call
}

// A run on a search surface recorded the calls the model made of the
// harness's search_tools, describe_tool and call_tool over the server's
// tools (Header.Tools). Read back, the searches and descriptions (calls of
// Kind record.CallSearch) are left out: they are no call of the server,
// and never a wrong tool. Each call_tool{name: X, arguments: A} is the
// call X(A), with the result the tool gave. A call_tool whose arguments
// name no tool, and a call of any other name, stay as they were: the
// model called a tool it was not shown.

// searchedAttempt is a with its searches left out and each call_tool read
// back as the call it made.
func searchedAttempt(a *record.Attempt) *record.Attempt {
	c := *a
	c.Turns = make([]record.Turn, len(a.Turns))
	for i, t := range a.Turns {
		var calls []record.Call
		for _, call := range t.Calls {
			if call.Kind == record.CallSearch {
				continue
			}
			calls = append(calls, calledTool(call))
		}
		t.Calls = calls
		c.Turns[i] = t
	}
	return &c
}

// calledTool reads a call_tool call back as the call it made; any other
// call is returned as it is.
func calledTool(call record.Call) record.Call {
	if call.Name != suite.CallToolTool {
		return call
	}
	var made struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(call.Args, &made) != nil || made.Name == "" {
		return call
	}
	args := made.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	call.Name, call.WireName, call.Args = made.Name, "", args
	return call
}
