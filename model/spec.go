package model

import (
	"fmt"
	"strings"
)

// ParseSpec splits a model spec "provider:name;key=value;key=value" into an
// Info. It checks the form only; which options a provider accepts is the
// provider's to check.
func ParseSpec(spec string) (Info, error) {
	provider, rest, ok := strings.Cut(spec, ":")
	if !ok || provider == "" || rest == "" {
		return Info{}, fmt.Errorf("model spec %q: want provider:name, e.g. fake:perfect or anthropic:claude-sonnet-4-5", spec)
	}
	parts := strings.Split(rest, ";")
	info := Info{Spec: spec, Provider: provider, Name: parts[0]}
	if info.Name == "" {
		return Info{}, fmt.Errorf("model spec %q: the model name is empty", spec)
	}
	for _, p := range parts[1:] {
		if p == "" {
			continue
		}
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return Info{}, fmt.Errorf("model spec %q: option %q is not key=value", spec, p)
		}
		if info.Options == nil {
			info.Options = map[string]string{}
		}
		if _, dup := info.Options[k]; dup {
			return Info{}, fmt.Errorf("model spec %q: option %q given twice", spec, k)
		}
		info.Options[k] = v
	}
	return info, nil
}
