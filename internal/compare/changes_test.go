package compare

import (
	"slices"
	"testing"
)

// TestOptionKeys checks the option names of two runs are listed once each,
// effort first and the rest in order.
func TestOptionKeys(t *testing.T) {
	for _, tc := range []struct {
		a, b map[string]string
		want []string
	}{
		{map[string]string{"temperature": "0", "effort": "high"}, map[string]string{"budget": "1", "temperature": "1"}, []string{"effort", "budget", "temperature"}},
		{map[string]string{"b": "1"}, map[string]string{"a": "1", "effort": "low"}, []string{"effort", "a", "b"}},
		{map[string]string{"b": "1"}, map[string]string{"a": "1"}, []string{"a", "b"}},
		{map[string]string{"effort": "x"}, nil, []string{"effort"}},
		{nil, nil, []string{}},
	} {
		if got := optionKeys(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("optionKeys(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
