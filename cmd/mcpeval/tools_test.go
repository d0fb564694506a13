package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/suite"
)

// TestToolsAndInitOverHTTP lists the tools of a server that wants a bearer
// token, and starts a suite for it: the token is sent, never shown or
// written, and the suite names it by reference.
func TestToolsAndInitOverHTTP(t *testing.T) {
	const token = "tok-PLANTED-9931"
	t.Setenv("MCPEVAL_TEST_TOKEN", token)
	ts := householdBehindToken(t, token)

	if _, _, code := cli("tools", ts.URL); code == 0 {
		t.Error("tools without the bearer token succeeded against a server that requires it")
	}
	out, errs, code := cli("tools", ts.URL, "--target-header", "Authorization: Bearer ${MCPEVAL_TEST_TOKEN}")
	if code != 0 || !strings.Contains(out, "): 9 tools") || strings.Contains(out+errs, "PLANTED") {
		t.Fatalf("tools over HTTP: exit %d\n%s%s", code, out, errs)
	}

	dir := filepath.Join(t.TempDir(), "s")
	out, errs, code = cli("init", ts.URL, dir, "--target-header", "Authorization: Bearer ${MCPEVAL_TEST_TOKEN}")
	if code != 0 {
		t.Fatalf("init over HTTP: exit %d\n%s%s", code, out, errs)
	}
	s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Target.Spec != ts.URL || s.Target.Headers["Authorization"] != "Bearer ${MCPEVAL_TEST_TOKEN}" {
		t.Errorf("the suite's target: %+v", s.Target)
	}
	if out, errs, code := cli("validate", dir); code != 0 || !strings.Contains(out, "9 tools") {
		t.Errorf("validate of the new suite: exit %d\n%s%s", code, out, errs)
	}

	// A literal secret is written as a reference to set, never as itself.
	dir = filepath.Join(t.TempDir(), "literal")
	out, errs, code = cli("init", ts.URL, dir, "--target-header", "Authorization: Bearer "+token)
	if code != 0 || !strings.Contains(out, "${MCPEVAL_HEADER_AUTHORIZATION}") {
		t.Fatalf("init with a literal header: exit %d\n%s%s", code, out, errs)
	}
	noFileHolds(t, dir, "PLANTED")
	if strings.Contains(out+errs, "PLANTED") {
		t.Errorf("init printed the token:\n%s%s", out, errs)
	}
}
