package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// run --batch, end to end through the CLI against a stand-in of the
// Message Batches API: the pr dataset of the household CI suite is one
// batch, every attempt passes, the header names the batch, stderr says
// how it got on, and --batch on a run no batch API can take exits 2.
func TestRunBatch(t *testing.T) {
	s, err := suite.Load(filepath.Join("..", "..", "examples", "household-ci"))
	if err != nil {
		t.Fatal(err)
	}
	b := wiremodel.NewBatches(&wiremodel.Handler{API: wiremodel.Anthropic, Keys: wiremodel.Keys(s), APIKey: anthropicKey})
	srv := httptest.NewServer(b)
	t.Cleanup(srv.Close)
	t.Setenv("ANTHROPIC_API_KEY", anthropicKey)
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("MCPEVAL_SPEND", "")

	out := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--suite", filepath.Join("..", "..", "examples", "household-ci"), "--dataset", "pr", "--attempts", "1",
		"--model", "anthropic:claude-test", "--spend", "--batch", "--out", out}
	stdout, stderr, code := cli(args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Header.Batches) != 1 || len(rec.Attempts) != 5 {
		t.Fatalf("batches %+v, %d attempts; want one batch of 5", rec.Header.Batches, len(rec.Attempts))
	}
	if want := "mcpeval run: batch " + rec.Header.Batches[0].ID + ": 5/5 done"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if got := b.Count(http.MethodPost, "/v1/messages/batches"); got != 1 {
		t.Errorf("%d batches created, want 1", got)
	}
	if strings.Contains(stdout+stderr, anthropicKey) {
		t.Error("the API key was printed")
	}

	_, stderr, code = cli("run", "--suite", "household", "--batch", "--spend", "--model", "anthropic:claude-test", "--out", filepath.Join(t.TempDir(), "agent"))
	if code != 2 || !strings.Contains(stderr, "only mode: tool-call cases can be batched") {
		t.Errorf("agent cases: exit %d, stderr %q; want 2 and why", code, stderr)
	}
	if got := b.Count(http.MethodPost, "/v1/messages/batches"); got != 1 {
		t.Errorf("a refused run sent a batch: %d created", got)
	}
}
