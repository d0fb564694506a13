package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/target"
)

// ErrTargetNotAllowed is returned, wrapped, when a suite's action cases
// would change a target its actions.allow_targets does not name.
var ErrTargetNotAllowed = errors.New("target not allowed")

// guardTarget refuses a target the suite's action cases may not change:
// every server of conn must be named by the suite's allow_targets, by its
// spec or by the name and version it reported. It is called once the
// target is connected, before the preflight and before any fixture is
// built; cfg.AllowAnyTarget lets any target through.
func guardTarget(cfg Config, conn *target.Conn) error {
	s := cfg.Suite
	if cfg.AllowAnyTarget || len(s.AllowedTargets()) == 0 || !s.HasActionCases() {
		return nil
	}
	type server struct{ spec, name, version string }
	var servers []server
	if infos := conn.ServerInfo(); infos != nil {
		for _, sv := range cfg.Target.Servers {
			one := server{spec: sv.Config.Spec}
			if in := infos[sv.Name]; in != nil {
				one.name, one.version = in.Name, in.Version
			}
			servers = append(servers, one)
		}
	} else {
		one := server{spec: cfg.Target.Spec}
		if init := conn.Session.InitializeResult(); init != nil && init.ServerInfo != nil {
			one.name, one.version = init.ServerInfo.Name, init.ServerInfo.Version
		}
		servers = append(servers, one)
	}
	for _, sv := range servers {
		if s.TargetAllowed(sv.spec, sv.name, sv.version) {
			continue
		}
		shown := target.Config{Spec: sv.spec}.Describe()
		return fmt.Errorf("%w: suite %s changes what its target holds, and may change only %s (%s: actions: allow_targets); "+
			"target %s reports server %q version %q, which none of them names: run against one of them, add it to allow_targets, "+
			"or pass --allow-any-target (the record and publish say so)",
			ErrTargetNotAllowed, s.Name, strings.Join(s.AllowedTargets(), ", "), s.SettingLine("actions"), shown, sv.name, sv.version)
	}
	return nil
}
