package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunFromMCPJSONOverHTTP runs the household suite against the
// household server behind a bearer token, reached through an mcp.json
// server with a url and a ${VAR} header: every case passes, and neither
// the token nor the endpoint reaches the run's files. Without a name in a
// file of several servers the run is refused as bad input.
func TestRunFromMCPJSONOverHTTP(t *testing.T) {
	const token = "tok-PLANTED-mcpjson-http"
	t.Setenv("MCPEVAL_TEST_TOKEN", token)
	ts := householdBehindToken(t, token)
	dir := t.TempDir()
	conf := filepath.Join(dir, "mcp.json")
	os.WriteFile(conf, []byte(`{"mcpServers": {
  "household": {"type": "http", "url": "`+ts.URL+`/mcp", "headers": {"Authorization": "Bearer ${MCPEVAL_TEST_TOKEN}"}},
  "local": {"command": "does-not-matter"}
}}`), 0o644)
	out := filepath.Join(dir, "run")
	s, code, stderr := runJSON(t, "run", "--json", "--quiet", "--target", conf+"#household", "--attempts", "1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Totals.Graded != 20 || s.Totals.Passed != 20 {
		t.Errorf("from mcp.json over HTTP: totals %+v", s.Totals)
	}
	noFileHolds(t, out, "PLANTED", strings.TrimPrefix(ts.URL, "http://"))
	if _, code, stderr := runJSON(t, "run", "--quiet", "--target", conf, "--attempts", "1", "--out", out+"2"); code != 2 || !strings.Contains(stderr, "holds 2 servers (household, local)") {
		t.Errorf("no name among two servers: exit %d, %s", code, stderr)
	}
}
