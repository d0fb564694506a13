package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSpec(t *testing.T) {
	got, err := ParseSpec("anthropic:claude-sonnet-4-5;effort=medium;max_tokens=8192")
	if err != nil {
		t.Fatal(err)
	}
	want := Info{Spec: "anthropic:claude-sonnet-4-5;effort=medium;max_tokens=8192", Provider: "anthropic", Name: "claude-sonnet-4-5",
		Options: map[string]string{"effort": "medium", "max_tokens": "8192"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParseSpec (-want +got):\n%s", d)
	}
	for _, bad := range []string{"", "fake", ":x", "fake:", "a:b;noequals", "a:b;k=1;k=2", "a:;k=v"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) succeeded, want an error", bad)
		}
	}
}
