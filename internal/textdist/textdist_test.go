package textdist

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"figure", "figures", 1}, {"figures", "figure", 1}, {"kitten", "sitting", 3},
		{"get_net_worth", "get_net_worth", 0}, {"€1", "£1", 1}, {"", "abc", 3}, {"abc", "", 3},
		{"singel", "single", 2}, {"naïve", "naive", 1},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
