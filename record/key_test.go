package record

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestAttemptKey checks the two spellings of an attempt: "case #n" for
// people, and "case#n" as files such as judge.json already key attempts,
// which must not change.
func TestAttemptKey(t *testing.T) {
	k := AttemptKey{"single-tool/net-worth-now", 12}
	if got, want := k.String(), "single-tool/net-worth-now #12"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := k.ID(), "single-tool/net-worth-now#12"; got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
	a := &Attempt{Case: k.Case, N: k.N}
	p := Planned(k)
	if a.Key() != k || p.Key() != k {
		t.Errorf("Attempt.Key() = %v, Planned.Key() = %v, want %v", a.Key(), p.Key(), k)
	}
	if (AttemptKey{"a", 1}) == (AttemptKey{"a", 2}) || (AttemptKey{"a", 1}) == (AttemptKey{"b", 1}) {
		t.Error("keys of different attempts are equal")
	}
}

// TestAttemptKeyText checks that a map keyed by attempt reads and writes as
// a JSON object keyed "case#n", and that a key that is not one is refused.
func TestAttemptKeyText(t *testing.T) {
	m := map[AttemptKey]int{{"a#b", 2}: 1, {"c", 10}: 2}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"a#b#2":1,"c#10":2}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	var back map[AttemptKey]int
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Errorf("read back %v, want %v", back, m)
	}
	for _, bad := range []string{`{"c":1}`, `{"#1":1}`, `{"c#":1}`, `{"c#0":1}`, `{"c#x":1}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s was read as attempt keys: %v", bad, back)
		}
	}
}
