package record

import "testing"

// TestRetrySupersedesError: an errored attempt recorded again later (a
// retry) is replaced by the later one, kept as superseded, with no
// warning; the later of two answered attempts is still ignored.
func TestRetrySupersedesError(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, header())
	w.Attempt(&Attempt{Case: "a/b", N: 1, End: EndError, Error: &Error{Kind: "provider", Message: "503"}})
	w.Attempt(&Attempt{Case: "a/b", N: 2, End: EndAnswered, Answer: "kept"})
	w.Attempt(&Attempt{Case: "a/b", N: 1, End: EndAnswered, Answer: "retried"})
	w.Attempt(&Attempt{Case: "a/b", N: 2, End: EndAnswered, Answer: "ignored"})
	w.Close()
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 2 || run.Attempts[0].Answer != "retried" || run.Attempts[1].Answer != "kept" {
		t.Errorf("attempts %+v, want #1 retried and #2 kept", run.Attempts)
	}
	if len(run.Superseded) != 1 || run.Superseded[0].End != EndError {
		t.Errorf("superseded %+v, want the errored #1", run.Superseded)
	}
	if len(run.Warnings) != 1 {
		t.Errorf("warnings %q, want one (for the second #2)", run.Warnings)
	}
}
