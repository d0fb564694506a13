package record_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 1<<17) // more than the reader's buffer
	br := bufio.NewReaderSize(strings.NewReader("{\"a\":1}\n"+long+"\n{\"torn\""), 1<<12)
	for i, want := range []string{`{"a":1}`, long} {
		got, err := record.ReadLine(br)
		if err != nil || string(got) != want {
			t.Fatalf("line %d: %d bytes, %v; want %d bytes and no error", i+1, len(got), err, len(want))
		}
	}
	got, err := record.ReadLine(br)
	if !errors.Is(err, io.EOF) || string(got) != `{"torn"` {
		t.Fatalf("torn last line: %q, %v; want its bytes and io.EOF", got, err)
	}
	if got, err := record.ReadLine(br); len(got) != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %q, %v; want nothing and io.EOF", got, err)
	}
}
