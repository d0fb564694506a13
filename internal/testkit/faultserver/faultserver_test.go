package faultserver

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestOwnTools(t *testing.T) {
	var stderr bytes.Buffer
	s, err := NewServer(Options{}, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := text("get_total", nil); !strings.Contains(got, `"total":42`) {
		t.Errorf("get_total = %q", got)
	}
	if got := text("big", map[string]any{"bytes": 1000}); len(got) != 1000 {
		t.Errorf("big returned %d bytes, want 1000", len(got))
	}
	if got := text("flood", map[string]any{"bytes": 10000}); got != "flooded" || stderr.Len() < 10000 || !strings.HasSuffix(stderr.String(), "flood done\n") {
		t.Errorf("flood = %q, stderr %d bytes", got, stderr.Len())
	}
	if got := text("hostile", nil); got != Hostile {
		t.Errorf("hostile = %q", got)
	}
}

func TestWireSendsInvalidUTF8(t *testing.T) {
	var out bytes.Buffer
	w := &wire{w: &out}
	msg := `{"text":"a` + Invalid + `b"}` + "\n"
	if n, err := w.Write([]byte(msg)); err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := out.String(); got != "{\"text\":\"a\xff\xfe\xc3\x28b\"}\n" {
		t.Errorf("on the wire: %q", got)
	}
}

func TestFailStart(t *testing.T) {
	var stderr bytes.Buffer
	if code := Main([]string{"-fail-start"}, strings.NewReader(""), io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "cannot start") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if code := Main([]string{"-no-such-flag"}, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
}
