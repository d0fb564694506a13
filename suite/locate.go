package suite

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v4"
)

// where returns the line and column of a YAML error in the file being
// read. Some errors carry no line (a control character, a second document):
// they are placed from the byte offset, or at the second document's
// marker, or else at line 1, so that every error names a line.
func (l *loader) where(m yaml.Mark, msg string) (line, col int) {
	if m.Line > 0 {
		return m.Line, m.Column
	}
	data := l.data
	if m.Index > 0 && m.Index <= len(data) {
		before := data[:m.Index]
		return 1 + bytes.Count(before, []byte("\n")), m.Index - bytes.LastIndexByte(before, '\n')
	}
	if strings.Contains(msg, "found multiple") {
		if n := secondDocument(data); n > 0 {
			return n, 1
		}
	}
	return 1, 0
}

// secondDocument returns the line of the marker that starts a file's second
// YAML document, or 0.
func secondDocument(data []byte) int {
	content := false
	for i, ln := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(ln, "---") || strings.HasPrefix(ln, "...") {
			if content {
				return i + 1
			}
			continue
		}
		if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "#") {
			content = true
		}
	}
	return 0
}
