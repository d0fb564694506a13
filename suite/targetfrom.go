package suite

import (
	"os"
	"path/filepath"
	"strings"
)

// TargetFile returns the mcp.json file the suite's target is read from
// (target: {from: FILE}), relative to the suite's own directory, or "" when
// the target is given in the suite itself.
func (s *Suite) TargetFile() string {
	f := s.Target.From
	if f == "" || filepath.IsAbs(f) || strings.HasPrefix(s.Path, "embedded:") {
		return f
	}
	base := s.Path
	if st, err := os.Stat(base); err == nil && !st.IsDir() {
		base = filepath.Dir(base)
	}
	return filepath.Join(base, f)
}

// checkTargetFrom checks a target read from an mcp.json file: the file
// gives the spec, environment, directory and headers, so the suite gives
// none of them.
func (l *loader) checkTargetFrom(s *Suite, file string, data []byte) {
	t := s.Target
	line := max(lineOf(data, "target:"), 1)
	if t.From == "" {
		if t.Name != "" {
			l.errorf(file, line, 0, "target: name %q goes with from: an mcp.json file", t.Name)
		}
		return
	}
	if t.Spec != "" || len(t.Env) > 0 || t.Dir != "" || len(t.Headers) > 0 {
		l.errorf(file, line, 0, "target: from %s gives the server's command or URL, env, cwd and headers: want from, name, inherit_env and connect_timeout only", t.From)
	}
}
