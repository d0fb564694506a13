package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// Unverified reports whether the case was drafted by a tool and not yet
// checked by a person: it says verified: false.
func (c *Case) Unverified() bool { return c.Verified != nil && !*c.Verified }

// VerifiedCases returns how many of the suite's cases a person has
// checked (every case not marked verified: false) and how many cases it
// has.
func (s *Suite) VerifiedCases() (verified, total int) {
	for _, c := range s.Cases {
		if !c.Unverified() {
			verified++
		}
	}
	return verified, len(s.Cases)
}

// UnverifiedIDs returns the ids of the cases marked verified: false, in
// suite order.
func (s *Suite) UnverifiedIDs() []string {
	var ids []string
	for _, c := range s.Cases {
		if c.Unverified() {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// verificationKeys are the fields of a case that record a person's check
// of it.
var verificationKeys = map[string]bool{"verified": true, "verified_by": true, "verified_at": true}

// withoutVerification returns data, the text of a suite file whose cases
// are the nodes, without the entries that record a person's check of a
// case, for the suite's hash: each entry of verificationKeys written on a
// line of its own in a block mapping is cut from its key to the end of
// the line, and a line left blank is dropped. Setting verified: true and
// adding verified_by and verified_at on lines of their own (as "mcpeval
// review --verify" does) leaves the text the same.
func withoutVerification(data []byte, nodes []yaml.Node) []byte {
	cuts := map[int]int{} // line (from 1) to the byte its entry starts at
	for i := range nodes {
		for line, col := range VerificationEntries(data, &nodes[i]) {
			cuts[line] = col
		}
	}
	if len(cuts) == 0 {
		return data
	}
	var out []byte
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		col, ok := cuts[n]
		if !ok {
			out = append(out, line...)
			continue
		}
		if kept := line[:col]; len(bytes.TrimSpace(kept)) > 0 {
			out = append(out, kept...)
			out = append(out, '\n')
		}
	}
	return out
}

// VerificationEntries returns where the entries of the case mapping n
// that record a person's check (verified, verified_by, verified_at) are
// in data, the text n was read from: by line (from 1), the byte of the
// line its key starts at. Only an entry alone on its line in a block
// mapping, its value a one-line scalar after nothing but indentation and
// a list dash, is returned; data is then edited, and hashed, by lines.
func VerificationEntries(data []byte, n *yaml.Node) map[int]int {
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 {
		return nil
	}
	lines := bytes.Split(data, []byte("\n"))
	out := map[int]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !verificationKeys[k.Value] || v.Kind != yaml.ScalarNode || v.Line != k.Line ||
			v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || k.Line < 1 || k.Line > len(lines) {
			continue
		}
		if i+2 < len(n.Content) && n.Content[i+2].Line <= k.Line {
			continue
		}
		line, col := lines[k.Line-1], k.Column-1
		if col < 0 || col > len(line) || len(bytes.Trim(line[:col], " -")) > 0 {
			continue
		}
		out[k.Line] = col
	}
	return out
}

// checkVerified checks who checked a case and when: both go with
// verified: true, a name on one line and a time or a date.
func checkVerified(c *Case, at func(string, ...any)) {
	if (c.VerifiedBy != "" || c.VerifiedAt != "") && (c.Verified == nil || !*c.Verified) {
		at("verified_by and verified_at say who checked the case and when: they go with verified: true")
	}
	if c.VerifiedBy != "" && (strings.TrimSpace(c.VerifiedBy) == "" || strings.ContainsAny(c.VerifiedBy, "\r\n")) {
		at("verified_by %q: want the name of the person who checked the case, on one line", c.VerifiedBy)
	}
	if c.VerifiedAt != "" {
		if _, err := ParseVerifiedAt(c.VerifiedAt); err != nil {
			at("%v", err)
		}
	}
}

// ParseVerifiedAt reads a case's verified_at: an RFC 3339 time
// (2026-12-01T09:30:00Z) or a date (2026-12-01).
func ParseVerifiedAt(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("verified_at %q: want a time such as 2026-12-01T09:30:00Z or a date such as 2026-12-01", s)
}

// SetVerified returns data, the text of a suite file, with the case id
// marked as checked by a person: its verified: false made verified: true,
// and verified_by (by) and verified_at (at, in UTC to the second) added on
// lines of their own under it. Nothing else in the text changes: comments,
// order and layout stay as written, and the suite's hash stays the same.
// It refuses a case the file does not hold, one not marked verified:
// false, and one whose verified is not on a line of its own (a flow
// mapping such as {id: x, verified: false}), which a person edits by hand.
func SetVerified(data []byte, id, by string, at time.Time) ([]byte, error) {
	if strings.TrimSpace(by) == "" || strings.ContainsAny(by, "\r\n") {
		return nil, fmt.Errorf("verifying case %s: want the name of who checked it, on one line", id)
	}
	c, err := caseNode(data, id)
	if err != nil {
		return nil, fmt.Errorf("verifying case %s: %w", id, err)
	}
	var key, val *yaml.Node
	for i := 0; i+1 < len(c.Content); i += 2 {
		switch k := c.Content[i]; k.Value {
		case "verified":
			key, val = k, c.Content[i+1]
		case "verified_by", "verified_at":
			return nil, fmt.Errorf("verifying case %s: it already says %s: edit the case by hand", id, k.Value)
		}
	}
	var b bool
	switch {
	case key == nil:
		return nil, fmt.Errorf("verifying case %s: it has no verified: false (a case a person wrote counts as checked)", id)
	case val.Kind != yaml.ScalarNode || val.Load(&b) != nil:
		return nil, fmt.Errorf("verifying case %s: verified %q is not true or false", id, val.Value)
	case b:
		return nil, fmt.Errorf("verifying case %s: it already says verified: true", id)
	}
	col, ok := VerificationEntries(data, c)[key.Line]
	if !ok || val.Style != 0 {
		return nil, fmt.Errorf("verifying case %s: its verified: false is not on a line of its own: set verified: true by hand", id)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	line := lines[key.Line-1]
	vs := val.Column - 1
	if vs < col || vs+len(val.Value) > len(line) || string(line[vs:vs+len(val.Value)]) != val.Value {
		return nil, fmt.Errorf("verifying case %s: verified: false is not where it was read: set verified: true by hand", id)
	}
	eol := "\n"
	if bytes.HasSuffix(line, []byte("\r\n")) {
		eol = "\r\n"
	}
	indent := strings.Repeat(" ", col)
	var edited bytes.Buffer
	edited.Write(line[:vs])
	edited.WriteString("true")
	rest := line[vs+len(val.Value):]
	edited.Write(rest)
	if !bytes.HasSuffix(rest, []byte("\n")) {
		edited.WriteString(eol)
	}
	fmt.Fprintf(&edited, "%sverified_by: %s%s", indent, quoted(strings.TrimSpace(by)), eol)
	fmt.Fprintf(&edited, "%sverified_at: %s%s", indent, quoted(at.UTC().Truncate(time.Second).Format(time.RFC3339)), eol)
	lines[key.Line-1] = edited.Bytes()
	return bytes.Join(lines, nil), nil
}

// caseNode returns the mapping of case id in the suite file data: an item
// of its top-level cases list.
func caseNode(data []byte, id string) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	top := &root
	if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
		top = top.Content[0]
	}
	var found *yaml.Node
	if cases := nodeAt(top, "cases"); cases != nil && cases.Kind == yaml.SequenceNode {
		for _, c := range cases.Content {
			if n := mapValue(c, "id"); n != nil && n.Kind == yaml.ScalarNode && n.Value == id {
				if found != nil {
					return nil, fmt.Errorf("the file holds it twice")
				}
				found = c
			}
		}
	}
	if found == nil {
		return nil, fmt.Errorf("the file holds no case with that id")
	}
	return found, nil
}

// quoted writes s as a YAML double-quoted scalar (a JSON string, which
// YAML reads as the same string).
func quoted(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
