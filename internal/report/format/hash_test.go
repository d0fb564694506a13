package format

import "testing"

func TestHash(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "-"},
		{"abc", "abc"},
		{"0123456789ab", "0123456789ab"},
		{"0123456789abcdef0123", "0123456789ab"},
	} {
		if got := Hash(c.in); got != c.want {
			t.Errorf("Hash(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
