package suite

import (
	"fmt"
	"strings"
)

// serverPrefix starts an allow_targets entry that names a server by the
// name (and version) it reports rather than by its spec.
const serverPrefix = "server:"

// allowTargetProblem says what is wrong with allow_targets entry t
// (empty when nothing is).
func allowTargetProblem(t string) string {
	switch name, ok := strings.CutPrefix(strings.TrimSpace(t), serverPrefix); {
	case strings.TrimSpace(t) == "":
		return "empty: want a target spec (builtin:ops) or server:NAME[@VERSION]"
	case ok && strings.TrimSpace(strings.SplitN(name, "@", 2)[0]) == "":
		return fmt.Sprintf("%q names no server: want server:NAME or server:NAME@VERSION", t)
	}
	return ""
}

// HasActionCases reports whether any case of s is an action case: one
// that changes what its target holds.
func (s *Suite) HasActionCases() bool {
	for _, c := range s.Cases {
		if c.Action != nil {
			return true
		}
	}
	return false
}

// AllowedTargets returns the suite's actions.allow_targets (nil when it
// names none: every target is allowed).
func (s *Suite) AllowedTargets() []string {
	if s.Actions == nil {
		return nil
	}
	return s.Actions.AllowTargets
}

// TargetAllowed reports whether the suite's action cases may change a
// server: one whose spec is spec and that reported name and version when
// it connected. An entry of allow_targets allows it when it is spec, or
// "server:NAME" with the server's name, or "server:NAME@VERSION" with
// its name and version. A suite with no action cases, or no
// allow_targets, allows every server.
func (s *Suite) TargetAllowed(spec, name, version string) bool {
	allowed := s.AllowedTargets()
	if len(allowed) == 0 || !s.HasActionCases() {
		return true
	}
	for _, a := range allowed {
		a = strings.TrimSpace(a)
		srv, ok := strings.CutPrefix(a, serverPrefix)
		if !ok {
			if spec != "" && a == spec {
				return true
			}
			continue
		}
		n, v, versioned := strings.Cut(srv, "@")
		if name != "" && strings.TrimSpace(n) == name && (!versioned || strings.TrimSpace(v) == version) {
			return true
		}
	}
	return false
}
