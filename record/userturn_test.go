package record

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

// TestUserTurnCompatible: a scripted user turn is written as it always
// was, one from an older record reads back the same, and a simulated
// user's turn has no entry but its model and its own turn.
func TestUserTurnCompatible(t *testing.T) {
	old := `{"text":"Which one?","usage":{},"latency_ms":3,"user":{"entry":2,"text":"The total.","approves":true}}`
	var tr Turn
	if err := json.Unmarshal([]byte(old), &tr); err != nil {
		t.Fatal(err)
	}
	if u := tr.User; u == nil || u.Entry != 2 || u.Text != "The total." || !u.Approves || u.Simulated() || u.Turn != nil {
		t.Fatalf("an old user turn reads as %+v", tr.User)
	}
	b, err := json.Marshal(tr.User)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"entry":2,"text":"The total.","approves":true}`; got != want {
		t.Errorf("a scripted user turn is written %s, want %s as before", got, want)
	}
	sim := &UserTurn{Text: "DBS.", Model: &model.Info{Spec: "fake:user", Provider: "fake", Name: "user", Fake: true},
		Turn: &Turn{Text: "DBS.", Usage: model.Usage{Input: 5}, LatencyMS: 2}}
	b, err = json.Marshal(sim)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Contains(s, `"entry"`) || !strings.Contains(s, `"model":{"spec":"fake:user"`) || !strings.Contains(s, `"turn":{"text":"DBS.","usage":{"input":5`) {
		t.Errorf("a simulated user turn is written %s", s)
	}
	var back UserTurn
	if err := json.Unmarshal(b, &back); err != nil || !back.Simulated() || back.Turn.Usage.Input != 5 {
		t.Errorf("it reads back as %+v (%v)", back, err)
	}
}
