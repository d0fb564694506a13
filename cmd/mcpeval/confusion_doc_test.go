package main

import "testing"

// TestToolConfusionDoc runs the commands of docs/ci.md's "Tool confusion"
// section in order and checks that every line of its output blocks is
// what they print.
func TestToolConfusionDoc(t *testing.T) {
	d := readDocSection(t, "ci.md", "Tool confusion")
	if len(d.cmds) < 4 || len(d.shown) < 6 {
		t.Fatalf("found %d commands and %d output lines: the section's blocks changed", len(d.cmds), len(d.shown))
	}
	d.run(t)
}
