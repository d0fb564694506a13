package format

import "testing"

func TestGrouped(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0"},
		{"999", "999"},
		{"1204", "1,204"},
		{"-1204", "-1,204"},
		{"-120", "-120"},
		{"2394755.5", "2,394,755.5"},
		{"1000000", "1,000,000"},
		{"1234.5678", "1,234.5678"},
	} {
		if got := Grouped(c.in); got != c.want {
			t.Errorf("Grouped(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
