package grade

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
)

// TestHouseholdCorpus grades scripted answers to every case of the real
// household suite, with the household server's results captured in
// testdata/household: the key's answer must pass every case, a model that
// refuses everything must fail them all (a bare refusal does not say the
// data cannot answer, so it fails even the unanswerable ones), and so must
// one that invents numbers.
func TestHouseholdCorpus(t *testing.T) {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	hh := loadHousehold(t)
	h := hh.header(false)
	for _, c := range s.Cases {
		t.Run(c.ID, func(t *testing.T) {
			if g := Attempt(s, c, h, answered(c, c.Key.Answer, hh.keyCalls(t, c)...)); g.Outcome != Pass {
				t.Errorf("the key's answer: %s%s", g.Outcome, reasonsText(g.Reasons))
			}
			refuse := Attempt(s, c, h, answered(c, refusal))
			if refuse.Outcome != Fail {
				t.Errorf("a refusal: %s%s", refuse.Outcome, reasonsText(refuse.Reasons))
			}
			invent := Attempt(s, c, h, answered(c, invented))
			if invent.Outcome != Fail {
				t.Errorf("an invented answer: %s", invent.Outcome)
			}
		})
	}
}
