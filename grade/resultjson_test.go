package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// results are graded runs of every shape grades.json holds: no attempts
// (none graded, an empty list), attempts with reasons, judges and text
// json escapes, and the fields after the attempts.
func results() map[string]*Result {
	full := &Result{
		RunID: "r1", Model: "fake:<perfect> & co", Valid: true,
		Attempts: []AttemptGrade{
			{Case: "a", N: 1, Outcome: Pass, Reasons: []Reason{}},
			{Case: "a", N: 2, Outcome: Fail, Reasons: []Reason{{Check: CheckFigures, Message: "want 1 200 € \u2028 \"quoted\" <b>"}}, ToolErrors: 2,
				Judge: &Opinion{Declines: true, Reason: "it says so", Model: "fake:j"}},
			{Case: "b", N: 1, Outcome: Error, ErrorKind: "timeout", Reasons: []Reason{{Check: CheckError, Message: "timeout: slow"}},
				Judged: &Judgement{Model: "fake:j", Verdict: Pass, Pass: 2, Fail: 1}},
			{Case: "b", N: 2, Outcome: Pass},
		},
		Cases:      []CaseStats{{ID: "a", Group: "g", Prompt: "How much?\n<all>", Counts: Counts{Passed: 1, Failed: 1, Graded: 2, Rate: 0.5}}},
		Groups:     []GroupStats{{Name: "g"}},
		Totals:     Totals{Counts: Counts{Passed: 2}, ErrorKinds: map[string]int{"timeout": 1}},
		Judged:     &Counts{Passed: 1},
		Unverified: []string{"b"},
		Warnings:   []string{"the run did not finish"},
		Confusion:  &Confusion{Attempts: 3, First: []ConfusionCell{}, Calls: []ConfusionCell{}},
	}
	return map[string]*Result{
		"nil attempts":   {RunID: "r0", Invalid: "drifted"},
		"empty attempts": {RunID: "r0", Attempts: []AttemptGrade{}, Cases: []CaseStats{}, Groups: []GroupStats{}},
		"full":           full,
		"one attempt":    {Attempts: full.Attempts[1:2]},
	}
}

// TestWriteResultIsMarshalIndent: grades.json written attempt by attempt
// is byte for byte what json.MarshalIndent writes.
func TestWriteResultIsMarshalIndent(t *testing.T) {
	for name, res := range results() {
		want, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := WriteResult(&got, res); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: WriteResult wrote\n%s\nwant\n%s", name, got.Bytes(), want)
		}
	}
}

// TestReadResultIsUnmarshal: grades.json read as a stream is what
// json.Unmarshal reads, whole or attempt by attempt, and the attempts of
// one case share one id.
func TestReadResultIsUnmarshal(t *testing.T) {
	for name, res := range results() {
		b, _ := json.MarshalIndent(res, "", "  ")
		var want Result
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadResult(bytes.NewReader(b), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("%s: ReadResult read\n%+v\nwant\n%+v", name, got, &want)
		}
		var each []AttemptGrade
		head, err := ReadResult(bytes.NewReader(b), func(a *AttemptGrade) error {
			each = append(each, *a)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if head.Attempts != nil || len(each) != len(want.Attempts) || (len(each) > 0 && !reflect.DeepEqual(each, want.Attempts)) {
			t.Errorf("%s: read attempt by attempt: %d attempts kept, %d handed on, want none kept and %d", name, len(head.Attempts), len(each), len(want.Attempts))
		}
		head.Attempts = want.Attempts
		if !reflect.DeepEqual(head, &want) {
			t.Errorf("%s: read attempt by attempt, the rest is\n%+v\nwant\n%+v", name, head, &want)
		}
	}
	got, _ := ReadResult(strings.NewReader(`{"attempts":[{"case":"spend/groceries","n":1},{"case":"spend/groceries","n":2}]}`), nil)
	if a, b := got.Attempts[0].Case, got.Attempts[1].Case; a != b || unsafeData(a) != unsafeData(b) {
		t.Errorf("the attempts of one case hold two copies of its id")
	}
}

// TestReadResultRefusesWhatUnmarshalRefuses: a torn or trailing grades.json
// is an error, as it is to json.Unmarshal, and an error of each stops the
// reading.
func TestReadResultRefusesWhatUnmarshalRefuses(t *testing.T) {
	for _, bad := range []string{
		``, `{`, `{"run_id": "x"`, `{"attempts": [{"case": "a"}`, `{"attempts": {}}`,
		`{"run_id": 1}`, `{} {}`, `[]`, `{"attempts": [{"n": "1"}]}`,
	} {
		if json.Unmarshal([]byte(bad), new(Result)) == nil {
			t.Fatalf("json.Unmarshal reads %q", bad)
		}
		if _, err := ReadResult(strings.NewReader(bad), nil); err == nil {
			t.Errorf("ReadResult read %q", bad)
		}
	}
	stop := errors.New("stop")
	n := 0
	_, err := ReadResult(strings.NewReader(`{"attempts":[{"case":"x"},{"case":"y"}]}`), func(*AttemptGrade) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("each stopping: %d read, error %v; want 1 and its error", n, err)
	}
}

// unsafeData is where the bytes of s are.
func unsafeData(s string) *byte { return unsafe.StringData(s) }
