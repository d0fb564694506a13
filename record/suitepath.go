package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SetPaths records where the suite is, absolutely and relative to the run
// directory dir, both as seen from the current folder. An embedded suite
// has no path to record.
func (s *SuiteInfo) SetPaths(dir string) {
	s.Abs, s.FromRun = "", ""
	if s.Path == "" || strings.HasPrefix(s.Path, "embedded:") {
		return
	}
	abs, err := filepath.Abs(s.Path)
	if err != nil {
		return
	}
	s.Abs = abs
	if d, err := filepath.Abs(dir); err == nil {
		if rel, err := filepath.Rel(d, abs); err == nil {
			s.FromRun = filepath.ToSlash(rel)
		}
	}
}

// Locate returns the path, from the current folder, at which the suite of
// the run in directory dir is read: its absolute path, else its path from
// the run directory. An embedded suite's Path is returned as it is, and so
// is the Path of a record made before mcpeval recorded where its suite is
// (that path is relative to the folder the run was made in). When neither
// recorded path exists, the error says where it looked and to give the
// suite with --suite PATH.
func (s SuiteInfo) Locate(dir string) (string, error) {
	if s.Abs == "" && s.FromRun == "" {
		return s.Path, nil
	}
	var looked []string
	if s.Abs != "" {
		if _, err := os.Stat(s.Abs); err == nil {
			return s.Abs, nil
		}
		looked = append(looked, s.Abs)
	}
	if s.FromRun != "" {
		p := filepath.Join(dir, filepath.FromSlash(s.FromRun))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		looked = append(looked, p)
	}
	return "", fmt.Errorf("the suite the run in %s was made with (%s) is no longer where it was (looked at %s): give it with --suite PATH",
		dir, s.Path, strings.Join(looked, " and "))
}

// Rebase keeps the suite's recorded paths true for a run written to
// directory to from the run in directory from (a merged run from its
// first shard). Path is kept as it is.
func (s *SuiteInfo) Rebase(from, to string) {
	if s.Abs == "" && s.FromRun == "" {
		return
	}
	p, err := s.Locate(from)
	if err != nil {
		return
	}
	given := s.Path
	s.Path = p
	s.SetPaths(to)
	s.Path = given
}
