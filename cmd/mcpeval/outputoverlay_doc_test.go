package main

import "testing"

// TestOutputOverlayDoc runs docs/ci.md's "Output overlays" section: each
// yaml block is written to the file its first comment names, the commands
// run in order, and every line of its output block must be printed.
func TestOutputOverlayDoc(t *testing.T) {
	d := readDocSection(t, "ci.md", "Output overlays")
	if len(d.files) != 2 || len(d.cmds) != 3 || len(d.shown) < 2 {
		t.Fatalf("found %d files, %d commands and %d output lines: the section's blocks changed", len(d.files), len(d.cmds), len(d.shown))
	}
	d.run(t)
}
