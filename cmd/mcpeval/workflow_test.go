package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestWorkflowExample: examples/github-actions.yml is valid YAML, and every
// mcpeval command it runs names a command and flags mcpeval has.
func TestWorkflowExample(t *testing.T) {
	data, err := os.ReadFile("../../examples/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Load(data, &wf); err != nil {
		t.Fatalf("examples/github-actions.yml: %v", err)
	}
	seen := map[string]bool{}
	for job, j := range wf.Jobs {
		for _, s := range j.Steps {
			words := shellWords(s.Run)
			for i, w := range words {
				if !strings.HasSuffix(w, "mcpeval") || i+1 >= len(words) || strings.HasPrefix(words[i+1], "-") || i > 0 && words[i-1] == "-o" {
					continue
				}
				args := append(append([]string{}, words[i+1:]...), "--help")
				seen[args[0]] = true
				if code := Main(context.Background(), args, nil, io.Discard, io.Discard); code != 0 {
					t.Errorf("job %s: mcpeval %s: a command or flag mcpeval does not have (exit %d)", job, strings.Join(words[i+1:], " "), code)
				}
				break
			}
		}
	}
	for _, c := range []string{"run", "merge", "compare"} {
		if !seen[c] {
			t.Errorf("the workflow never runs mcpeval %s", c)
		}
	}
}

// shellWords splits a command line into words, honouring double quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			in = true
		case !quoted && (r == ' ' || r == '\n' || r == '\t'):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
