package record

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Root is a root the client declared to the server.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// MaxNotes is the most notifications a call's record keeps.
const MaxNotes = 20

// Note is a notification a server sent about a tool call while it ran:
// a progress report (Kind "progress": Progress of Total, Total 0 when
// unknown, and an optional Message) or a log message (Kind "log": Level,
// Logger, and the message as text in Message or as JSON in Data).
type Note struct {
	Kind     string          `json:"kind"`
	Progress float64         `json:"progress,omitempty"`
	Total    float64         `json:"total,omitempty"`
	Message  string          `json:"message,omitempty"`
	Level    string          `json:"level,omitempty"`
	Logger   string          `json:"logger,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
}

// Line is the note as one line of a transcript, unescaped: "progress 2/3:
// message" or "log info (logger): message".
func (n Note) Line() string {
	var b strings.Builder
	switch n.Kind {
	case "progress":
		b.WriteString("progress " + strconv.FormatFloat(n.Progress, 'f', -1, 64))
		if n.Total > 0 {
			b.WriteString("/" + strconv.FormatFloat(n.Total, 'f', -1, 64))
		}
	default:
		b.WriteString(n.Kind + " " + n.Level)
		if n.Logger != "" {
			b.WriteString(" (" + n.Logger + ")")
		}
	}
	msg := n.Message
	if msg == "" && len(n.Data) > 0 {
		msg = string(n.Data)
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	return b.String()
}

// ToolChange is a change to the server's tools an attempt saw: the server
// said its tools changed, and listing them again found tools added,
// removed or changed (their definitions hashing differently).
type ToolChange struct {
	// Turn is the attempt's turn (from 0) whose request to the model was
	// the first to carry the new tools: the change came while the turn
	// before it was under way (0: before the attempt's first request).
	Turn int `json:"turn"`
	// Added and Changed are the definitions of the tools the server added
	// and of those whose definition changed, as it now lists them.
	Added   []Tool `json:"added,omitempty"`
	Changed []Tool `json:"changed,omitempty"`
	// Removed names the tools the server no longer lists.
	Removed []string `json:"removed,omitempty"`
	// ToolsHash is the hash of the server's tools after the change.
	ToolsHash string `json:"tools_hash"`
}

// ToolsSeen returns the tools attempt a could have been shown: h's Tools,
// then each of its tool changes' added and changed tools (the latest
// definition kept). A tool removed stays, since a call made before the
// removal was a call of a listed tool; a call after it was recorded as
// one of a tool not shown (Call.Shown false).
func ToolsSeen(h *Header, a *Attempt) []Tool {
	if len(a.ToolChanges) == 0 {
		return h.Tools
	}
	tools := append([]Tool(nil), h.Tools...)
	at := map[string]int{}
	for i, t := range tools {
		at[t.Name] = i
	}
	for _, c := range a.ToolChanges {
		for _, t := range append(append([]Tool(nil), c.Added...), c.Changed...) {
			if i, ok := at[t.Name]; ok {
				tools[i] = t
				continue
			}
			at[t.Name] = len(tools)
			tools = append(tools, t)
		}
	}
	return tools
}
