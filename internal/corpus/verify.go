package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/suite"
)

// Who checked a drafted case and when is written in the suite file, under
// the case (verified_by, verified_at), not in a run's reviews.jsonl: the
// check is of the case, not of one run's attempt, so it holds for every
// run after it; it can be made with no run at all (review --verify
// --suite); and it travels with the case, in the same commit and diff as
// verified: true, where publish reads it.

// ErrNotEditable is returned, wrapped, by Verify when the case's file
// cannot be edited: it is built into mcpeval, or read-only.
var ErrNotEditable = errors.New("cannot be edited")

// Verified is a drafted case a person has checked, as Verify wrote it.
type Verified struct {
	// Case is the case's id; File the suite file edited and Line the
	// case's line in it.
	Case string `json:"case"`
	File string `json:"file"`
	Line int    `json:"line"`
	// By and At say who checked it and when (UTC, to the second).
	By string    `json:"verified_by"`
	At time.Time `json:"verified_at"`
}

// Verify records that by checked the drafted case id of s at at: in the
// case's file, verified: false becomes verified: true, with verified_by
// and verified_at under it, and nothing else in the file changes
// (suite.SetVerified). The file is replaced whole, by a rename, so that a
// reader never sees half of it. It refuses a case that is not marked
// verified: false, one of an embedded suite, and one whose file is
// read-only (ErrNotEditable).
func Verify(s *suite.Suite, id, by string, at time.Time) (*Verified, error) {
	var c *suite.Case
	for _, x := range s.Cases {
		if x.ID == id {
			c = x
		}
	}
	switch {
	case c == nil:
		return nil, fmt.Errorf("verifying case %s: the suite %s has no such case", id, s.Path)
	case strings.HasPrefix(s.Path, "embedded:"):
		return nil, fmt.Errorf("verifying case %s: it comes from the suite %s, built into mcpeval: it %w", id, s.Path, ErrNotEditable)
	case c.Verified != nil && *c.Verified:
		who := ""
		if c.VerifiedBy != "" {
			who = " by " + c.VerifiedBy
		}
		return nil, fmt.Errorf("verifying case %s: it is already verified%s", id, who)
	case c.Verified == nil:
		return nil, fmt.Errorf("verifying case %s: it is not a draft (it has no verified: false): a case a person wrote counts as checked", id)
	}
	at = at.UTC().Truncate(time.Second)
	if err := rewrite(c.File, func(data []byte) ([]byte, error) { return suite.SetVerified(data, id, by, at) }); err != nil {
		return nil, fmt.Errorf("verifying case %s: %w", id, err)
	}
	return &Verified{Case: id, File: c.File, Line: c.Line, By: strings.TrimSpace(by), At: at}, nil
}

// rewrite replaces the file at name with what edit makes of its text,
// through a file beside it renamed over it, keeping its mode. A file
// whose mode allows its owner no writing is refused, whoever runs it.
func rewrite(name string, edit func([]byte) ([]byte, error)) error {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return fmt.Errorf("finding the case's file: %w", err)
	}
	st, err := os.Stat(real)
	switch {
	case err != nil:
		return fmt.Errorf("reading the case's file: %w", err)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file: it %w", name, ErrNotEditable)
	case st.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only (mode %v): it %w; make it writable to record the check", name, st.Mode().Perm(), ErrNotEditable)
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return fmt.Errorf("reading the case's file: %w", err)
	}
	out, err := edit(data)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".verify-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	_, err = tmp.Write(out)
	if err == nil {
		err = tmp.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), real)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// KeyLines are case c's key as a person checking it reads it: each call
// (an action case's steps, a tool-call case's tools) on a line, then the
// questions it asks and the answer. The text is as the suite holds it,
// for the caller to escape where it is shown.
func KeyLines(c *suite.Case) []string {
	var out []string
	switch {
	case c.Action != nil:
		for i, st := range c.Action.Steps {
			out = append(out, fmt.Sprintf("step %d: %s", i+1, st.Tool))
		}
	case c.IsToolCall():
		out = append(out, "first call: one of "+strings.Join(c.ExpectTools, ", "))
	default:
		for i, k := range c.Key.Calls {
			args := "{}"
			if len(k.Args) > 0 {
				b, _ := json.Marshal(k.Args) // read from YAML: always encodes
				args = string(b)
			}
			out = append(out, fmt.Sprintf("call %d: %s %s", i+1, k.Tool, args))
		}
	}
	for _, a := range c.Key.Asks {
		out = append(out, "asks: "+a)
	}
	if c.Key.Answer != "" {
		out = append(out, "answer: "+c.Key.Answer)
	}
	return out
}
