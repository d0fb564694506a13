package compare

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

func planned(suite string, cases ...string) *record.Run {
	r := &record.Run{}
	r.Header.Suite.Name = suite
	for _, c := range cases {
		r.Header.Planned = append(r.Header.Planned, record.Planned{Case: c, N: 1}, record.Planned{Case: c, N: 2})
	}
	return r
}

func TestRelatedRuns(t *testing.T) {
	for _, tc := range []struct {
		name      string
		base, new *record.Run
		want      string // "" means related
	}{
		{"same suite and cases", planned("household", "a/1", "a/2"), planned("household", "a/1", "a/2"), ""},
		{"one case in common", planned("household", "a/1", "a/2"), planned("household", "a/2", "b/1"), ""},
		{"different suites", planned("household", "a/1"), planned("ops", "a/1"), `different suites ("household" and "ops")`},
		{"no case in common", planned("household", "a/1", "a/2"), planned("household", "b/1"), "no case in common (2 and 1 cases planned)"},
		{"an empty run", planned("household", "a/1"), planned("household"), "no case in common"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := RelatedRuns(tc.base, tc.new)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
