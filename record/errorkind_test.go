package record

import (
	"encoding/json"
	"testing"
)

// TestErrorKinds checks that the typed error kinds are spelt as records
// already hold them, and read back from a record line as they were written.
func TestErrorKinds(t *testing.T) {
	for _, k := range []struct {
		kind ErrorKind
		want string
	}{
		{KindProvider, "provider"}, {KindTarget, "target"}, {KindTimeout, "timeout"},
		{KindFixture, "fixture"}, {KindBudget, "budget"}, {KindCanceled, "canceled"},
	} {
		b, err := json.Marshal(Error{Kind: k.kind, Message: "m"})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"kind":"` + k.want + `","message":"m"}`; string(b) != want {
			t.Errorf("%s encodes as %s, want %s", k.kind, b, want)
		}
		var back Error
		if err := json.Unmarshal([]byte(`{"kind":"`+k.want+`"}`), &back); err != nil || back.Kind != k.kind {
			t.Errorf("%q reads back as %q (%v)", k.want, back.Kind, err)
		}
	}
}
