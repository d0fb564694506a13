package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpeval/mcpeval/suite"
)

const draftSuite = `name: t
target: builtin:household
cases:
  # drafted
  - id: a/draft
    prompt: Net worth?
    verified: false
    no_invented_figures: true
  - id: a/person
    prompt: Accounts?
    no_invented_figures: true
`

func writeDraft(t *testing.T, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte(draftSuite), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerifyEditsTheFile(t *testing.T) {
	p := writeDraft(t, 0o640)
	s, err := suite.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 30, 0, 5, time.FixedZone("SGT", 8*3600))
	v, err := Verify(s, "a/draft", " ana ", at)
	if err != nil {
		t.Fatal(err)
	}
	if v.Case != "a/draft" || v.File != p || v.Line != 5 || v.By != "ana" || !v.At.Equal(time.Date(2026, 12, 1, 1, 30, 0, 0, time.UTC)) {
		t.Errorf("verified %+v", v)
	}
	got, _ := os.ReadFile(p)
	want := strings.Replace(draftSuite, "verified: false\n", "verified: true\n    verified_by: \"ana\"\n    verified_at: \"2026-12-01T01:30:00Z\"\n", 1)
	if string(got) != want {
		t.Errorf("file after:\n%s\nwant:\n%s", got, want)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("mode after: %v, want 0640", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	s2, err := suite.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(s2, "a/draft", "bob", at); err == nil || !strings.Contains(err.Error(), "already verified by ana") {
		t.Errorf("second verify: %v", err)
	}
}

func TestVerifyRefusesWhatCannotBeEdited(t *testing.T) {
	p := writeDraft(t, 0o444)
	s, err := suite.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Verify(s, "a/draft", "ana", time.Now())
	if !errors.Is(err, ErrNotEditable) || !strings.Contains(err.Error(), "is read-only (mode -r--r--r--)") {
		t.Errorf("read-only file: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != draftSuite {
		t.Errorf("the read-only file changed:\n%s", got)
	}

	emb, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(draftSuite)}}, ".", "embedded:t")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Verify(emb, "a/draft", "ana", time.Now())
	if !errors.Is(err, ErrNotEditable) || !strings.Contains(err.Error(), "comes from the suite embedded:t, built into mcpeval") {
		t.Errorf("embedded suite: %v", err)
	}

	for id, want := range map[string]string{
		"a/person": "it is not a draft (it has no verified: false)",
		"a/nope":   "has no such case",
	} {
		if _, err := Verify(s, id, "ana", time.Now()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", id, err, want)
		}
	}
}
