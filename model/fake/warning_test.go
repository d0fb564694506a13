package fake

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/suite"
)

// TestExtraChangeWarnsWithoutStray: on a suite with no actions.stray and no
// fixture to build again, fake:extra-change makes no change nobody asked
// for, so it would pass unnoticed: a warning names the missing setting. With
// actions.stray it warns no more, and no other fake warns.
func TestExtraChangeWarnsWithoutStray(t *testing.T) {
	load := func(text string) *suite.Suite {
		t.Helper()
		s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, "suite.yaml", "test")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := load(moveSuite)
	if n, p := len(play(t, "extra-change")), len(play(t, "perfect")); n != p {
		t.Fatalf("fake:extra-change made %d calls, fake:perfect %d: the suite was meant to give it no stray change", n, p)
	}
	w := Warning("extra-change", s)
	for _, want := range []string{"fake:extra-change", "actions.stray", "sequence/archive"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q does not contain %q", w, want)
		}
	}
	for _, name := range Names() {
		if name != "extra-change" && Warning(name, s) != "" {
			t.Errorf("fake:%s warns: %s", name, Warning(name, s))
		}
	}
	stray := strings.Replace(moveSuite, "allow_writes: true\n", "allow_writes: true\nactions:\n  stray: {tool: move_file, args: {source: a.txt, destination: \"b-{{token}}.txt\"}}\n", 1)
	if w := Warning("extra-change", load(stray)); w != "" {
		t.Errorf("with actions.stray: %s", w)
	}
}
