package lazyregexp

import (
	"testing"
)

func TestCompiledOnFirstUse(t *testing.T) {
	r := &Regexp{str: `^a(b+)$`} // as New makes it outside a test binary
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("abb") || r.MatchString("ab c") {
		t.Errorf("MatchString disagrees with regexp")
	}
	if got := r.FindStringSubmatch("abbb"); len(got) != 2 || got[1] != "bbb" {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	if r.String() != `^a(b+)$` {
		t.Errorf("String = %q", r.String())
	}
}

func TestNewCompilesAtOnceInTests(t *testing.T) {
	if !inTest() {
		t.Fatal("a test binary is not seen as one")
	}
	defer func() {
		if recover() == nil {
			t.Error("New accepted a bad pattern under go test without panicking")
		}
	}()
	New(`(`)
}
