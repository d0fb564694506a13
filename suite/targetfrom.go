package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SettingLine returns "FILE:LINE" of the top-level setting key in the
// suite's settings file, or the file alone when the key is not found there
// (an embedded suite, or a setting left out).
func (s *Suite) SettingLine(key string) string {
	p := s.Path
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		p = filepath.Join(p, "suite.yaml")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return p
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key+":") {
			return fmt.Sprintf("%s:%d", p, i+1)
		}
	}
	return p
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
