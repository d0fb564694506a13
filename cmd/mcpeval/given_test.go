package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateShowsGivenArguments: validate lists each key argument whose
// value is given, marked so, with the value fake:perfect sends.
func TestValidateShowsGivenArguments(t *testing.T) {
	const text = `name: git
target: stdio:git-server
cases:
  - id: read/log
    prompt: Show the 1 latest commit.
    action:
      kind: read
      steps:
        - tool: git_log
          args:
            repo_path: {given: /srv/repos/bakery}
            max_count: {literal: 1}
`
	p := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"validate", p, "--offline"}, nil, &out, &errb)
	want := "given: 1 argument the user never says, sent as given and never judged:\n  read/log step 1: git_log repo_path = \"/srv/repos/bakery\" (given)\n"
	if code != 0 || !strings.Contains(out.String(), want) {
		t.Errorf("validate: exit %d\n%s%s\nwant it to hold:\n%s", code, out.String(), errb.String(), want)
	}
}
