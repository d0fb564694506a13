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
