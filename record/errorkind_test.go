package record

import "testing"

// TestErrorKinds checks that the typed error kinds are spelt as records
// already hold them, and as the deprecated names were.
func TestErrorKinds(t *testing.T) {
	for _, k := range []struct {
		kind ErrorKind
		old  string
		want string
	}{
		{KindProvider, ErrProvider, "provider"}, {KindTarget, ErrTarget, "target"}, {KindTimeout, ErrTimeout, "timeout"},
		{KindFixture, ErrFixture, "fixture"}, {KindBudget, ErrBudget, "budget"}, {KindCanceled, ErrCanceled, "canceled"},
	} {
		if string(k.kind) != k.want || k.old != k.want {
			t.Errorf("kind %q, deprecated name %q, want %q", k.kind, k.old, k.want)
		}
	}
}
