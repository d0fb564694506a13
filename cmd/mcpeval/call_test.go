package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/npm"
)

// TestCallFilesystem calls the tools of the npm filesystem server by hand:
// a text result read as the text itself, a structured one read into
// dotted paths, an isError result, and a tool it does not have.
func TestCallFilesystem(t *testing.T) {
	entry := npm.Server(t, "server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("rent is 2400\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := "stdio:node " + entry + " " + dir
	call := func(args ...string) (callResult, int, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"call", spec}, args...), nil, &out, &errb)
		var r callResult
		if code == 0 {
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("call --json is not JSON: %v\n%s", err, out.String())
			}
		}
		return r, code, errb.String()
	}
	r, code, stderr := call("read_text_file", `{"path": "`+filepath.Join(dir, "note.txt")+`"}`, "--json")
	if code != 0 || r.IsError || !strings.Contains(r.Text, "rent is 2400") {
		t.Fatalf("read_text_file: exit %d, %+v\n%s", code, r, stderr)
	}
	found := false
	for _, p := range r.Paths {
		found = found || strings.Contains(p.Path, "content") && strings.Contains(p.Value.(string), "rent is 2400")
	}
	if !found {
		t.Errorf("read_text_file: no path leads to the file's content: %+v", r.Paths)
	}
	r, code, stderr = call("read_text_file", `{"path": "/no/such/place"}`, "--json")
	if code != 0 || !r.IsError {
		t.Errorf("read_text_file outside the allowed directory: exit %d, is_error %t, want 0 and true\n%s", code, r.IsError, stderr)
	}
	_, code, stderr = call("read_txt_file")
	if code != exitUsage || !strings.Contains(stderr, "did you mean read_text_file") {
		t.Errorf("an unknown tool: exit %d, want %d naming read_text_file\n%s", code, exitUsage, stderr)
	}
}
