package runner

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// What a suite connects to is worked out here, and only here: its target:
// or targets:, a surface's own target, a server read from an mcp.json file
// (from: FILE, name: NAME), with its headers, environment, working
// directory and oauth, and what the command line changes of it. Every
// caller (Run, Validate, SurfaceTools, the commands, the secrets a run's
// pages hide) asks ResolveTarget.

// TargetOverrides are what a caller changes of the target a suite names.
// The zero value is the suite's own target, unchecked.
type TargetOverrides struct {
	// Surface is the surface whose target is resolved: its own target,
	// else the suite's. Nil is the suite's target.
	Surface *suite.Surface
	// Specs replace the suite's target (mcpeval's --target values): for a
	// suite of one server, or no suite, one spec (builtin:NAME,
	// stdio:COMMAND, an http(s) URL, or FILE.json[#NAME], a server of an
	// mcp.json file) replacing it whole; for a suite of several servers,
	// NAME=SPEC replacing the server NAME alone, one per server.
	Specs []string
	// Headers are "NAME: VALUE" headers added to an HTTP target, and Env
	// "KEY=VALUE" variables added to a stdio target's environment; each is
	// refused on a target of another kind.
	Headers, Env []string
	// ConnectTimeout, when positive, replaces the suite's connect_timeout.
	ConnectTimeout time.Duration
	// Base gives what a suite does not: the builtin targets, the client's
	// version and how many stderr lines to keep.
	Base target.Config
	// Check refuses a target that will not do (target.Config.Check, and a
	// suite naming none), saying where the suite writes it. Without it the
	// target is returned unchecked, for a caller that refuses something
	// else first (login wants HTTP) or whose dial checks it.
	Check bool
}

// ResolveTarget returns the target suite s connects to, with o applied: a
// suite's one server, or a target made of its several servers (targets:),
// each as the suite writes it or read from its mcp.json file, with a
// relative working directory or mcp.json path taken from the suite's own
// folder. A nil s has no target but the one spec o.Specs gives.
func ResolveTarget(s *suite.Suite, o TargetOverrides) (target.Config, error) {
	t, err := resolveChecked(s, o)
	if err != nil {
		return t, err
	}
	if err := addHeadersEnv(&t, o.Headers, o.Env); err != nil {
		return t, err
	}
	if o.ConnectTimeout > 0 {
		t.ConnectTimeout = o.ConnectTimeout
	}
	return t, nil
}

// resolveChecked returns the target of s with o's specs in place and o's
// base added, checked when o.Check says so.
func resolveChecked(s *suite.Suite, o TargetOverrides) (target.Config, error) {
	base := func(t target.Config) target.Config {
		t.Builtins, t.ClientVersion, t.StderrLines = o.Base.Builtins, o.Base.ClientVersion, o.Base.StderrLines
		return withNotify(t, s) // notify.go
	}
	if s == nil || len(o.Specs) > 0 {
		if sf := o.Surface; sf != nil && !sf.Canonical() {
			return target.Config{}, fmt.Errorf("--target and --surface %s: the surface names its own target; leave --target out", sf.Name)
		}
		t, err := overridden(s, o.Specs)
		t = base(t)
		if err == nil && o.Check {
			err = t.Check()
		}
		return t, err
	}
	t, err := surfaceTarget(s, o.Surface)
	if err != nil {
		return t, err
	}
	t = base(t)
	if !o.Check {
		return t, nil
	}
	if sf := o.Surface; sf != nil {
		if err := t.Check(); err != nil {
			return t, fmt.Errorf("%s: surface %s: %v", s.SettingLine("surfaces"), sf.Name, err)
		}
		return t, nil
	}
	if t.Spec == "" {
		return t, fmt.Errorf("suite %s names no target: give one with --target", s.Path)
	}
	if err := t.Check(); err != nil {
		return t, fmt.Errorf("%s: %v", s.SettingLine("target"), err)
	}
	return t, nil
}

// surfaceTarget returns the target of surface sf of suite s as the suite
// writes it: the surface's own, else the suite's (its one server, or its
// several). A nil sf is the suite's target.
func surfaceTarget(s *suite.Suite, sf *suite.Surface) (target.Config, error) {
	st := s.SurfaceTarget(sf)
	own := sf != nil && (sf.Target.Spec != "" || sf.Target.From != "")
	if !own && len(s.Targets) > 0 {
		return severalTarget(s)
	}
	t, err := serverTarget(s, st)
	if err != nil && own {
		return t, fmt.Errorf("surface %s: %w", sf.Name, err)
	}
	return t, err
}

// severalTarget returns the target of a suite that names several servers
// (targets:), each as serverTarget reads it.
func severalTarget(s *suite.Suite) (target.Config, error) {
	var servers []target.Server
	for _, name := range s.TargetNames() {
		c, err := serverTarget(s, s.Targets[name])
		if err != nil {
			return target.Config{}, fmt.Errorf("targets: %s: %w", name, err)
		}
		servers = append(servers, target.Server{Name: name, Config: c})
	}
	return target.Several(servers), nil
}

// serverTarget returns one server st of suite s: as the suite writes it,
// with its environment, headers, working directory and oauth, or, when it
// is read from an mcp.json file (from: FILE, name: NAME), that file's
// server with the suite's inherit_env and connect_timeout.
func serverTarget(s *suite.Suite, st suite.Target) (target.Config, error) {
	if st.From != "" {
		t, err := target.FromMCPJSON(inSuiteDir(s, st.From), st.Name)
		if err != nil {
			return t, fmt.Errorf("suite %s: target: %w", s.Path, err)
		}
		t.InheritEnv, t.ConnectTimeout = st.InheritEnv, st.ConnectTimeout
		return t, nil
	}
	t := target.Config{Spec: st.Spec, Env: maps.Clone(st.Env), Dir: inSuiteDir(s, st.Dir), Headers: maps.Clone(st.Headers),
		InheritEnv: st.InheritEnv, ConnectTimeout: st.ConnectTimeout}
	if o := st.OAuth; o != nil {
		t.OAuth = &target.OAuth{Flow: o.Flow, ClientID: o.ClientID, ClientSecret: o.ClientSecret, PrivateKeyFile: o.PrivateKeyFile, ClientMetadataURL: o.ClientMetadataURL, Scopes: o.Scopes,
			IdPIssuer: o.IdPIssuer, IdPClientID: o.IdPClientID, IdPClientSecret: o.IdPClientSecret, IDTokenEnv: o.IDTokenEnv, IDTokenFile: o.IDTokenFile}
	}
	return t, nil
}

// inSuiteDir returns path p, which a suite writes relative to its own
// folder, as the harness opens it; an empty or absolute p, and any p of an
// embedded suite, is returned as it is.
func inSuiteDir(s *suite.Suite, p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(s.Path, "embedded:") {
		return p
	}
	base := s.Path
	if st, err := os.Stat(base); err == nil && !st.IsDir() {
		base = filepath.Dir(base)
	}
	return filepath.Join(base, p)
}

// overridden returns the target the specs make of suite s: for a suite of
// one server (or none), the one spec given; for a suite of several, the
// suite's servers with each NAME=SPEC given in place of the server NAME.
// A plain spec on a suite of several is refused, as are a server replaced
// twice and several specs for a suite of one.
func overridden(s *suite.Suite, specs []string) (target.Config, error) {
	switch {
	case s == nil && len(specs) != 1:
		return target.Config{}, errors.New("no target: want one spec")
	case s == nil:
		return specTarget(specs[0])
	case len(s.Targets) == 0 && len(specs) > 1:
		return target.Config{}, fmt.Errorf("--target is given %d times: suite %s has one target (NAME=SPEC replaces a server of a suite of several)", len(specs), s.Name)
	case len(s.Targets) == 0:
		return specTarget(specs[0])
	}
	t, err := severalTarget(s)
	if err != nil {
		return t, err
	}
	names := s.TargetNames()
	seen := map[string]bool{}
	for _, v := range specs {
		name, spec, ok := s.ServerOverride(v)
		switch {
		case !ok:
			return t, fmt.Errorf("--target %s: suite %s has several servers (%s): replace one with --target NAME=SPEC, as --target '%s=%s'",
				v, s.Name, strings.Join(names, ", "), names[0], v)
		case seen[name]:
			return t, fmt.Errorf("--target %s=...: server %s is replaced twice", name, name)
		}
		seen[name] = true
		c, err := specTarget(spec)
		if err != nil {
			return t, err
		}
		for i := range t.Servers {
			if t.Servers[i].Name == name {
				t.Servers[i].Config = c
			}
		}
	}
	return t, nil
}

// specTarget returns the target a spec names: builtin:NAME,
// stdio:COMMAND, an http(s) URL, or a server of an mcp.json file as
// FILE.json or FILE.json#NAME.
func specTarget(spec string) (target.Config, error) {
	if !target.IsMCPJSONRef(spec) {
		return target.Config{Spec: spec}, nil
	}
	return target.FromMCPJSON(target.SplitMCPJSONRef(spec))
}

// addHeadersEnv adds headers ("NAME: VALUE") and envs ("KEY=VALUE") to t,
// each refused where it cannot apply.
func addHeadersEnv(t *target.Config, headers, envs []string) error {
	if len(headers) > 0 && t.Kind() != "http" {
		return fmt.Errorf("--target-header goes with an http(s) target, not %s", t.Describe())
	}
	if len(envs) > 0 && t.Kind() != "stdio" {
		return fmt.Errorf("--target-env goes with a stdio: target, not %s", t.Describe())
	}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return fmt.Errorf("--target-header %q: want NAME: VALUE", h)
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		t.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("--target-env %q: want KEY=VALUE", kv)
		}
		if t.Env == nil {
			t.Env = map[string]string{}
		}
		t.Env[k] = v
	}
	return nil
}
