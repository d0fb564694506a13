package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// jsonlCases reads a JSON Lines file of cases: one JSON object a line,
// blank lines skipped.
func (l *loader) jsonlCases(s *Suite, file string, data []byte) {
	found := false
	for i, line := range bytes.Split(trimBOM(data), []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		found = true
		n, col, err := jsonLineNode(line, i+1)
		if err != nil {
			l.errorf(file, i+1, col, "%v", err)
			continue
		}
		l.caseNode(s, n, file)
	}
	if !found {
		l.errorf(file, 0, 0, "file has no cases: want one case a line, a JSON object such as {\"id\": \"group/slug\", \"prompt\": \"...\"}")
	}
}

// jsonLineNode reads one line of JSON as the YAML node a case is loaded
// from: every node on the line lineNo, at the column its value starts, and
// typed as JSON types it (a string stays text even when it reads as a
// number). On an error it also returns the column it was found at (0 when
// unknown).
func jsonLineNode(line []byte, lineNo int) (*yaml.Node, int, error) {
	p := &jsonLine{line: line, lineNo: lineNo, dec: json.NewDecoder(bytes.NewReader(line))}
	p.dec.UseNumber()
	n, err := p.value(0)
	var se *shapeError
	if errors.As(err, &se) {
		return nil, se.col, err
	}
	if err != nil {
		return nil, p.errCol(err), fmt.Errorf("invalid JSON: %w", err)
	}
	if n.Kind != yaml.MappingNode {
		return nil, n.Column, errors.New("not a JSON object: want one case a line, an object such as {\"id\": \"group/slug\", \"prompt\": \"...\"}")
	}
	if rest := p.line[p.dec.InputOffset():]; len(bytes.TrimSpace(rest)) > 0 {
		return nil, p.col(), errors.New("text after the object: want one case a line, one JSON object")
	}
	return n, 0, nil
}

// shapeError is JSON a case cannot be read from although it parses: a
// key written twice in one object (only one value could count), or
// nesting too deep.
type shapeError struct {
	msg string
	col int
}

func (e *shapeError) Error() string { return e.msg }

type jsonLine struct {
	line   []byte
	lineNo int
	dec    *json.Decoder
	last   int // the column col last returned
}

// col is the column (in characters, from 1) where the next token starts.
func (p *jsonLine) col() int {
	i := int(p.dec.InputOffset())
	for i < len(p.line) && strings.IndexByte(" \t\r,:", p.line[i]) >= 0 {
		i++
	}
	p.last = utf8.RuneCount(p.line[:min(i, len(p.line))]) + 1
	return p.last
}

// errCol places a decoding error on the line: at the start of the value
// it was found in, or past the end of a line that stops short.
func (p *jsonLine) errCol(err error) int {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return utf8.RuneCount(p.line) + 1
	}
	return p.last
}

// maxDepth is how deeply a case's JSON may nest: far more than any field
// of a case needs, and few enough that a hostile line cannot exhaust the
// stack.
const maxDepth = 64

func (p *jsonLine) value(depth int) (*yaml.Node, error) {
	if depth > maxDepth {
		return nil, &shapeError{fmt.Sprintf("nested more than %d deep: no field of a case is", maxDepth), p.col()}
	}
	col := p.col()
	tok, err := p.dec.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: p.lineNo, Column: col}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
			seen := map[string]bool{}
			for p.dec.More() {
				kcol := p.col()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string) // the decoder allows only a string here
				if seen[k] {
					return nil, &shapeError{fmt.Sprintf("key %q appears twice in one object: write it once", k), kcol}
				}
				seen[k] = true
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: p.lineNo, Column: kcol}, val)
			}
		case '[':
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
			for p.dec.More() {
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, val)
			}
		}
		if _, err := p.dec.Token(); err == io.EOF { // the closing delimiter
			return nil, io.ErrUnexpectedEOF
		} else if err != nil {
			return nil, err
		}
	case string:
		n.Tag, n.Value = "!!str", v
	case json.Number:
		n.Tag, n.Value = "!!float", v.String()
		if _, err := strconv.ParseInt(v.String(), 10, 64); err == nil {
			n.Tag = "!!int"
		}
	case bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(v)
	case nil:
		n.Tag, n.Value = "!!null", "null"
	}
	return n, nil
}
