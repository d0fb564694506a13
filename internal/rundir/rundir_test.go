package rundir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
)

func TestWriteJSONReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	p := Path(dir, Grades)
	if err := WriteJSON(p, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(p, map[string]int{"b": 2}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "{\n  \"b\": 2\n}\n"; got != want {
		t.Errorf("%s holds %q, want %q", p, got, want)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	onlyFiles(t, dir, Grades)
}

// TestWriteFileFailureKeepsOld: a write that fails halfway leaves the old
// file as it was and no temporary file behind.
func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := Path(dir, Actions)
	if err := WriteJSON(p, "old"); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(p, func(w io.Writer) error {
		io.WriteString(w, `"half`)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want one wrapping %v", err, boom)
	}
	if b, _ := os.ReadFile(p); string(b) != "\"old\"\n" {
		t.Errorf("after a failed write %s holds %q", p, b)
	}
	onlyFiles(t, dir, Actions)
	if err := WriteJSON(p, func() {}); err == nil {
		t.Error("a value JSON cannot encode was written")
	}
	onlyFiles(t, dir, Actions)
}

func TestWriteFileMakesDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", Ladder)
	if err := WriteJSON(p, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
}

func TestRemoveAndReadGrades(t *testing.T) {
	dir := t.TempDir()
	if err := Remove(dir, Actions); err != nil {
		t.Errorf("removing a file that is not there: %v", err)
	}
	if _, err := ReadGrades(dir); !errors.Is(err, ErrNoGrades) {
		t.Errorf("reading grades that are not there: %v, want ErrNoGrades", err)
	}
	want := &grade.Result{RunID: "r1", Model: "fake:perfect", Valid: true}
	if err := WriteJSON(Path(dir, Grades), want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadGrades(dir)
	if err != nil || got.RunID != "r1" || got.Model != "fake:perfect" || !got.Valid {
		t.Errorf("read back %+v, %v", got, err)
	}
	if err := Remove(dir, Grades); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path(dir, Grades)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still there after Remove: %v", Grades, err)
	}
	os.WriteFile(Path(dir, Grades), []byte("{not json"), 0o644)
	if _, err := ReadGrades(dir); err == nil || errors.Is(err, ErrNoGrades) {
		t.Errorf("reading a broken grades file: %v", err)
	}
}

// onlyFiles fails unless dir holds exactly the files names.
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("%s holds %v, want %v", dir, got, names)
		}
	}
}

// TestWriteGradesEachGrade: WriteGrades writes what WriteJSON writes, and
// EachGrade hands its attempts on one by one, keeping none, or stops
// with each's error.
func TestWriteGradesEachGrade(t *testing.T) {
	dir := t.TempDir()
	res := &grade.Result{RunID: "r1", Valid: true, Attempts: []grade.AttemptGrade{
		{Case: "a", N: 1, Outcome: grade.Pass, Reasons: []grade.Reason{}},
		{Case: "a", N: 2, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: grade.CheckFigures, Message: "<missing>"}}},
	}, Totals: grade.Totals{Counts: grade.Counts{Passed: 1, Failed: 1}}}
	if err := WriteJSON(Path(dir, "want.json"), res); err != nil {
		t.Fatal(err)
	}
	if err := WriteGrades(dir, res); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(Path(dir, "want.json"))
	got, _ := os.ReadFile(Path(dir, Grades))
	if string(got) != string(want) {
		t.Errorf("WriteGrades wrote\n%s\nwant\n%s", got, want)
	}
	var seen []string
	head, err := EachGrade(dir, func(a *grade.AttemptGrade) error {
		seen = append(seen, fmt.Sprintf("%s#%d %s", a.Case, a.N, a.Outcome))
		return nil
	})
	if err != nil || head.Attempts != nil || head.RunID != "r1" || head.Totals.Failed != 1 || strings.Join(seen, ",") != "a#1 pass,a#2 fail" {
		t.Errorf("EachGrade: %v, %+v, handed on %v", err, head, seen)
	}
	stop := errors.New("stop")
	if _, err := EachGrade(dir, func(*grade.AttemptGrade) error { return stop }); err != stop {
		t.Errorf("EachGrade stopped by each: %v, want its error as it is", err)
	}
	if _, err := EachGrade(t.TempDir(), func(*grade.AttemptGrade) error { return nil }); !errors.Is(err, ErrNoGrades) {
		t.Errorf("EachGrade without grades: %v, want ErrNoGrades", err)
	}
}

// TestGraded checks that a run is graded when it has a grades file, even
// one that cannot be read as grades, and not when it has none.
func TestGraded(t *testing.T) {
	dir := t.TempDir()
	if Graded(dir) {
		t.Error("Graded of a run without grades.json is true")
	}
	if err := os.WriteFile(Path(dir, Grades), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Graded(dir) {
		t.Error("Graded of a run with a grades.json it cannot read is false")
	}
}
