package grade

import "testing"

func TestMajority(t *testing.T) {
	for _, tc := range []struct {
		pass, fail, abstained int
		want                  Outcome
	}{
		{3, 0, 0, Pass},
		{2, 1, 0, Pass},
		{1, 2, 0, Fail},
		{2, 0, 1, Pass},
		{1, 1, 1, ""},
		{1, 1, 0, ""},
		{2, 2, 1, ""},
		{0, 0, 3, ""},
		{0, 0, 0, ""},
	} {
		if got := Majority(tc.pass, tc.fail, tc.abstained); got != tc.want {
			t.Errorf("Majority(%d pass, %d fail, %d abstained) = %q, want %q", tc.pass, tc.fail, tc.abstained, got, tc.want)
		}
	}
}

func TestJudgementSplit(t *testing.T) {
	for _, tc := range []struct {
		j     Judgement
		split bool
		tally string
	}{
		{Judgement{Pass: 3}, false, "3 pass, 0 fail"},
		{Judgement{Pass: 2, Fail: 1}, true, "2 pass, 1 fail"},
		{Judgement{Fail: 2, Abstained: 1}, true, "0 pass, 2 fail, 1 abstained"},
		{Judgement{Abstained: 3}, false, "0 pass, 0 fail, 3 abstained"},
	} {
		if tc.j.Split() != tc.split || tc.j.Tally() != tc.tally {
			t.Errorf("%+v: split %v, tally %q; want %v, %q", tc.j, tc.j.Split(), tc.j.Tally(), tc.split, tc.tally)
		}
	}
}
