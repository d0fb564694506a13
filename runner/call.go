package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// call sends one tool call to the server verbatim. It returns an error only
// when the target itself failed (crashed, hung, refused the connection);
// a tool's refusal and a protocol rejection are results the model sees.
func (r *run) call(ctx context.Context, conn *target.Conn, call model.Call) (record.Call, *model.Result, error) {
	rc := record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args, Shown: r.known[call.Name]}
	if !json.Valid(call.Args) {
		rc.Args = jsonString(string(call.Args))
	}
	res := &model.Result{CallID: call.ID, Name: call.Name, IsError: true}
	if !rc.Shown {
		res.Content = fmt.Sprintf("unknown tool %q", call.Name)
		rc.Rejected, rc.Result = res.Content, res.Content
		return rc, res, nil
	}
	var args any = json.RawMessage(call.Args)
	if len(call.Args) == 0 {
		args = map[string]any{}
	} else if !json.Valid(call.Args) {
		res.Content = "invalid arguments: not valid JSON"
		rc.Rejected, rc.Result = res.Content, res.Content
		return rc, res, nil
	}
	cctx, cancel := context.WithTimeout(ctx, r.cfg.CallTimeout)
	defer cancel()
	notes := &target.Notes{Max: record.MaxNotes} // progress and log messages (notify.go)
	cctx = target.WithNotes(cctx, notes)
	t0 := time.Now()
	rc.Server = callServer(conn, call.Name)
	out, err := r.resourceOr(cctx, conn, &rc, call.Name, args) // a resource tool reads resources
	keepNotes(&rc, notes)
	r.halt.check(err)
	took := time.Since(t0)
	rc.DurationMS, rc.DurationUS = took.Milliseconds(), took.Microseconds()
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) && (we.Code == jsonrpc.CodeInvalidParams || we.Code == jsonrpc.CodeMethodNotFound) {
			// The server refused the call itself (an unknown tool, arguments
			// that do not fit the schema): the model sees why. Any other
			// JSON-RPC error (an internal error, a 5xx with an error body)
			// is the target failing, below.
			res.Content = we.Message
			rc.Rejected, rc.Result = we.Message, we.Message
			return rc, res, nil
		}
		if cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return rc, nil, fmt.Errorf("tool %s did not answer within %s: %w", call.Name, r.cfg.CallTimeout, context.DeadlineExceeded)
		}
		return rc, nil, fmt.Errorf("calling tool %s: %w", call.Name, err)
	}
	var text strings.Builder
	for _, c := range out.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			if text.Len() > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(c.Text)
		default:
			b, _ := json.Marshal(c)
			text.Write(b)
		}
	}
	content := text.String()
	var structured json.RawMessage
	if out.StructuredContent != nil {
		if b, err := json.Marshal(out.StructuredContent); err == nil {
			structured = b
		}
	}
	if r.cfg.RewriteResult != nil && !out.IsError {
		shownText, shownStructured, changed := r.cfg.RewriteResult(content, structured, call.Name, overlayName(rc.Server, call.Name))
		if changed {
			rc.Overlaid = true
			rc.ServerResult, rc.ServerStructured = r.shownResult(&rc, content, structured, out.StructuredContent != nil)
			content, structured = shownText, shownStructured
		}
	}
	content, rc.Structured = r.shownResult(&rc, content, structured, out.StructuredContent != nil)
	rc.Result, rc.IsError = content, out.IsError
	res.Content, res.IsError, res.Structured = content, out.IsError, rc.Structured
	return rc, res, nil
}

// shownResult caps a result's text and structured content at the
// record's size, marking rc truncated where it cut, and adds the
// structured content to the text under tool_results: text+structured.
func (r *run) shownResult(rc *record.Call, content string, structured json.RawMessage, hadStructured bool) (string, json.RawMessage) {
	if len(content) > r.cfg.MaxResultBytes {
		content = truncate(content, r.cfg.MaxResultBytes)
		rc.Truncated = true
	}
	if len(structured) > r.cfg.MaxResultBytes || hadStructured && structured == nil {
		structured = nil
		rc.Truncated = true
	}
	if r.cfg.Suite.ToolResults == "text+structured" && len(structured) > 0 && !strings.Contains(content, string(structured)) {
		if content != "" {
			content += "\n"
		}
		content += string(structured)
	}
	return content, structured
}

// overlayName is the SERVER/TOOL name an output overlay may give a tool
// of one of several servers, shown to the model as SERVER__TOOL or TOOL;
// empty when the call went to the one server.
func overlayName(server, shown string) string {
	if server == "" {
		return ""
	}
	return server + "/" + strings.TrimPrefix(shown, server+"__")
}

func truncate(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 { // keep runes whole
		n--
	}
	return s[:n] + "\n[truncated by mcpeval]"
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
