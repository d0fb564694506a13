// Package yamlloc places the errors of YAML files a person edits (suites,
// overlays, scripts, fixtures) at a line and column, so that every loader
// reports them as FILE:LINE:COL the same way.
package yamlloc

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// Problem is one YAML error and where it is in the file: Line counts from
// 1; Col counts from 1, or is 0 when the error names no column.
type Problem struct {
	Line, Col int
	Msg       string
}

// Problems unpacks an error of yaml.Unmarshal or a yaml.Decoder reading
// data into one Problem per error, in order, each placed by Where. It
// returns nil when err is not a YAML load error, for the caller to report
// as it is.
func Problems(data []byte, err error) []Problem {
	var les *yaml.LoadErrors
	if errors.As(err, &les) && len(les.Errors) > 0 {
		out := make([]Problem, len(les.Errors))
		for i, e := range les.Errors {
			out[i] = problem(data, e.Mark, e.Message)
		}
		return out
	}
	var le *yaml.LoadError
	if errors.As(err, &le) {
		return []Problem{problem(data, le.Mark, le.Message)}
	}
	return nil
}

func problem(data []byte, m yaml.Mark, msg string) Problem {
	line, col := Where(data, m, msg)
	return Problem{Line: line, Col: col, Msg: msg}
}

// Where returns the line and column of a YAML error in data. Some errors
// carry no line (a control character, a second document): they are placed
// from the byte offset, or at the second document's marker, or else at
// line 1, column 0, so that every error names a line.
func Where(data []byte, m yaml.Mark, msg string) (line, col int) {
	if m.Line > 0 {
		return m.Line, m.Column
	}
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

// secondDocument returns the line of the marker that starts data's second
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

// InvalidUTF8Line returns the line of data's first byte that is not
// UTF-8, or 0 when all of data is.
func InvalidUTF8Line(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return 1 + bytes.Count(data[:i], []byte("\n"))
		}
		i += size
	}
	return 0
}
