package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/publish"
)

// helpText is what "mcpeval CMD --help" prints.
func helpText(t *testing.T, cmd string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	Main(context.Background(), []string{cmd, "--help"}, nil, &stdout, &stderr)
	return stdout.String() + stderr.String()
}

// TestRunHelpListsEveryProvider: run --help names every provider the
// registry opens, so a new provider is listed or this fails.
func TestRunHelpListsEveryProvider(t *testing.T) {
	help := helpText(t, "run")
	names := provider.Names()
	if len(names) < 7 {
		t.Fatalf("provider.Names() = %q: want fake, script and every real provider", names)
	}
	for _, n := range names {
		if !regexp.MustCompile(`(^|[\s,(])` + regexp.QuoteMeta(n) + `:`).MatchString(help) {
			t.Errorf("run --help does not name the provider %s (as %s:...)", n, n)
		}
	}
}

// TestPublishHelpListsEveryRule: publish --help names every rule of the
// registry, so a new rule is listed or this fails.
func TestPublishHelpListsEveryRule(t *testing.T) {
	help := helpText(t, "publish")
	for _, r := range publish.Rules {
		if !regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(r.Name) + `\s`).MatchString(help) {
			t.Errorf("publish --help does not list the rule %s", r.Name)
		}
	}
}

// TestCoverageHelpSaysWhatItCounts: coverage counts question cases as well
// as action cases (audit.Coverage reads both), and its help says so.
func TestCoverageHelpSaysWhatItCounts(t *testing.T) {
	help := helpText(t, "coverage")
	if regexp.MustCompile(`which\s+action\s+cases`).MatchString(help) {
		t.Errorf("coverage --help says it counts action cases only:\n%s", help)
	}
	for _, w := range []string{"question case", "action case"} {
		if !regexp.MustCompile(regexp.QuoteMeta(w)).MatchString(help) {
			t.Errorf("coverage --help does not say how a %s covers a tool", w)
		}
	}
}

// TestREADMEInstallsFromAClone: the module has no tagged release, so the
// README installs mcpeval from a clone, not at @latest or a version, and
// keeps its first lines (go run ./cmd/mcpeval run, go test ./...).
func TestREADMEInstallsFromAClone(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const head = "# mcpeval\n\n```sh\ngo run ./cmd/mcpeval run "
	if !strings.HasPrefix(readme, head) || !strings.Contains(firstBlock(readme), "go test ./...") {
		t.Errorf("README.md no longer starts with go run ./cmd/mcpeval run and go test ./...")
	}
	if m := regexp.MustCompile(`go install \S+@\S+`).FindString(readme); m != "" {
		t.Errorf("README.md says %q: the module has no tag to install", m)
	}
	if !strings.Contains(readme, "go install ./cmd/mcpeval") {
		t.Error("README.md does not say how to install from a clone (go install ./cmd/mcpeval)")
	}
}

// firstBlock is the first fenced block of a Markdown text.
func firstBlock(md string) string {
	_, rest, _ := strings.Cut(md, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	return block
}
