package suite

import (
	"slices"
	"strings"
)

// checkNotify checks the settings of what the client tells the server
// and asks of it: roots and log_level.
func (l *loader) checkNotify(s *Suite, file string, data []byte) {
	if s.LogLevel != "" && s.LogLevel != "off" && !slices.Contains(LogLevels, s.LogLevel) {
		l.errorf(file, lineOf(data, "log_level:"), 0, "log_level %q: want off or one of %s", s.LogLevel, strings.Join(LogLevels, ", "))
	}
	root := rootNode(data)
	for i, r := range s.Roots {
		line, col := lineOf(data, "roots:"), 0
		if n := nodeAt(root, "roots"); n != nil && i < len(n.Content) {
			line, col = n.Content[i].Line, n.Content[i].Column
		}
		scheme, _, hasScheme := strings.Cut(r.URI, "://")
		switch {
		case strings.TrimSpace(r.URI) == "":
			l.errorf(file, line, col, "roots %d: no uri: want a file:// URI or a path", i+1)
		case hasScheme && scheme != "file":
			l.errorf(file, line, col, "roots %d: uri %q: want a file:// URI or a path", i+1, r.URI)
		}
	}
}
