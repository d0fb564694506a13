package runner

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// suiteRoots returns the roots suite s declares as the client declares
// them: a path made a file:// URI, a relative one taken from the suite's
// folder.
func suiteRoots(s *suite.Suite) []target.Root {
	var roots []target.Root
	for _, r := range s.Roots {
		uri := r.URI
		if !strings.HasPrefix(uri, "file://") {
			p := inSuiteDir(s, uri)
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
		}
		roots = append(roots, target.Root{URI: uri, Name: r.Name})
	}
	return roots
}

// withNotify gives target t what suite s tells and asks the server: its
// roots and its log level.
func withNotify(t target.Config, s *suite.Suite) target.Config {
	if s == nil {
		return t
	}
	t.Roots, t.LogLevel = suiteRoots(s), s.LogLevel
	return t
}

// recordRoots returns the roots t declares as a record keeps them.
func recordRoots(t target.Config) []record.Root {
	var out []record.Root
	for _, r := range t.Roots {
		out = append(out, record.Root{URI: r.URI, Name: r.Name})
	}
	return out
}

// keepNotes stops collecting notes and puts them in call's record.
func keepNotes(rc *record.Call, notes *target.Notes) {
	notes.Close()
	kept, dropped := notes.Kept()
	for _, n := range kept {
		rc.Notes = append(rc.Notes, record.Note{Kind: n.Kind, Progress: n.Progress, Total: n.Total,
			Message: n.Message, Level: n.Level, Logger: n.Logger, Data: n.Data})
	}
	rc.NotesDropped = dropped
}
