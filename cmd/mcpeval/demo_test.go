package main

import (
	"errors"
	"strings"
	"testing"
)

func TestDemoSuiteRefusal(t *testing.T) {
	for _, tc := range []struct {
		model, suite string
		refuse       bool
	}{
		{"anthropic:claude-sonnet-4-5", "", true},
		{"openai:llama3.1;max_tokens=512", "", true},
		{"anthropic:claude-sonnet-4-5", "household", false},
		{"anthropic:claude-sonnet-4-5", "my-suite/", false},
		{"fake:perfect", "", false},
		{"script:answers.yaml", "", false},
		{"", "", false},
	} {
		err := demoSuiteRefusal(tc.model, tc.suite)
		if (err != nil) != tc.refuse {
			t.Errorf("demoSuiteRefusal(%q, %q) = %v, want refusal %v", tc.model, tc.suite, err, tc.refuse)
			continue
		}
		var ex *exitError
		if err != nil && (!errors.As(err, &ex) || ex.code != exitUsage || !strings.Contains(err.Error(), "--suite household")) {
			t.Errorf("refusal %v: want exit status 2 naming --suite household", err)
		}
	}
}
