package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrDuplicateTool is returned (wrapped) before any model request when the
// target lists two tools by one name.
var ErrDuplicateTool = errors.New("duplicate tool name")

// recordTool is a listed tool as a record keeps it: its input schema as
// canonical JSON, its annotations' hints, and read-only too when readOnly
// (the suite's read_only_tools) names it.
func recordTool(t *mcp.Tool, readOnly map[string]bool) (record.Tool, error) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return record.Tool{}, err
	}
	rt := record.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: canonical(schema)}
	if a := t.Annotations; a != nil {
		rt.ReadOnly = a.ReadOnlyHint
		rt.Destructive = a.DestructiveHint != nil && *a.DestructiveHint
	}
	rt.ReadOnly = rt.ReadOnly || readOnly[t.Name]
	return rt, nil
}

// listedTool is tool t as a run keeps it when conn lists it: recorded
// (recordTool), with the server serving it, and titled by its annotations
// when it has no title of its own.
func listedTool(conn *target.Conn, t *mcp.Tool, readOnly map[string]bool) (record.Tool, error) {
	rt, err := recordTool(t, readOnly)
	if err != nil {
		return rt, err
	}
	serve(conn, &rt)
	if t.Annotations != nil && rt.Title == "" {
		rt.Title = t.Annotations.Title
	}
	return rt, nil
}

// readOnlySet is the suite's read_only_tools as a set.
func readOnlySet(s *suite.Suite) map[string]bool {
	set := map[string]bool{}
	for _, t := range s.ReadOnlyTools {
		set[t] = true
	}
	return set
}

// ToolsHash is the SHA-256 of the canonical JSON of the tool definitions.
func ToolsHash(tools []record.Tool) string {
	b, _ := json.Marshal(tools)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (r *run) listTools(ctx context.Context, conn *target.Conn) error {
	listed, err := conn.Tools(ctx)
	if err != nil {
		return fmt.Errorf("starting target (before any model request): %w", err)
	}
	if err := r.resolveServers(conn, listed); err != nil { // several servers: SERVER/TOOL names
		return err
	}
	if listed, err = r.withResourceTools(conn, listed); err != nil { // resources: true
		return err
	}
	readOnly := readOnlySet(r.cfg.Suite)
	r.known = map[string]bool{}
	var names []string
	var writes []string
	for _, t := range listed {
		rt, err := listedTool(conn, t, readOnly)
		if err != nil {
			return fmt.Errorf("tool %s: encoding input schema: %w", t.Name, err)
		}
		if !rt.ReadOnly {
			writes = append(writes, t.Name)
		}
		if r.known[t.Name] {
			return fmt.Errorf("%w: the target lists the tool %q twice, and model providers refuse a request whose tools share a name; nothing was sent", ErrDuplicateTool, t.Name)
		}
		names = append(names, t.Name)
		r.known[t.Name] = true
		r.shown = append(r.shown, rt)
		r.tools = append(r.tools, model.Tool{Name: rt.Name, Description: rt.Description, InputSchema: rt.InputSchema})
	}
	r.all = names
	writes = r.hideTools(writes) // the suite's and cases' tools filters
	if err := r.cfg.Suite.CheckTools(r.cfg.Surface.CanonicalNames(names)); err != nil {
		return fmt.Errorf("the suite names tools the target does not list:\n%w", err)
	}
	if err := r.cfg.Suite.CheckFiltersOn(r.cfg.Surface, names); err != nil { // surface.go
		return fmt.Errorf("the suite's tools filters cannot be kept on surface %s:\n%w", r.cfg.Surface.Name, err)
	}
	if err := r.checkCases(names); err != nil { // slices and tool_choice
		return err
	}
	r.listed = r.shown
	if r.cfg.Overlay != nil {
		shown, err := r.cfg.Overlay(r.listed)
		if err != nil {
			return fmt.Errorf("applying overlay: %w", err)
		}
		r.shown = shown
		r.tools = r.tools[:0]
		for _, t := range shown {
			r.tools = append(r.tools, model.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
	}
	if len(writes) > 0 && !r.cfg.Suite.AllowWrites && !onlyToolCalls(r.cfg) { // a tool-call case executes nothing
		return fmt.Errorf("read-only run stopped before any model request: the target shows tools not marked read-only: %s (mark them readOnlyHint, list them in the suite's read_only_tools, or set allow_writes)", strings.Join(writes, ", "))
	}
	return nil
}

// canonical re-encodes JSON with sorted keys, so that equal schemas hash
// equally.
func canonical(b []byte) json.RawMessage {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}
