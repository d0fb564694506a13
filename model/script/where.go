package script

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// where returns the line and column of a YAML error in data. Some errors
// carry no line (a control character, a second document): they are placed
// from the byte offset, or at the second document's marker, or else at
// line 1, so that every error names a line.
func where(data []byte, m yaml.Mark, msg string) (line, col int) {
	if m.Line > 0 {
		return m.Line, m.Column
	}
	if m.Index > 0 && m.Index <= len(data) {
		before := data[:m.Index]
		return 1 + bytes.Count(before, []byte("\n")), m.Index - bytes.LastIndexByte(before, '\n')
	}
	if strings.Contains(msg, "found multiple") {
		content := false
		for i, ln := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(ln, "---") || strings.HasPrefix(ln, "...") {
				if content {
					return i + 1, 1
				}
				continue
			}
			if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "#") {
				content = true
			}
		}
	}
	return 1, 0
}

// invalidLine returns the line of the first byte of data that is not UTF-8.
func invalidLine(data []byte) int {
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}
