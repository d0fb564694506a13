package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const simulatedSuite = `name: simulated
target: builtin:household
attempts: 1
cases:
  - id: agent/net-worth
    prompt: How am I doing?
    tools: {required: [get_net_worth]}
    max_user_turns: 1
    user:
      model: anthropic:claude-haiku-4-5
      instructions: You want to know your net worth.
      knows: {currency: Singapore dollars}
    key: {calls: [{tool: get_net_worth}], answer: "Your net worth is S$2,394,755."}
`

// TestSimulatedUserOverTheWire: the model under test speaks OpenAI's wire
// format and its simulated user Anthropic's, each a stand-in. The run is
// refused without --spend for the paid user model alone; with it, the
// record keeps both models' turns, usage.json prices each on its own row,
// and score grades the run again without asking either model.
func TestSimulatedUserOverTheWire(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": simulatedSuite})
	s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tested := &wiremodel.Handler{API: wiremodel.OpenAI, APIKey: openaiKey, Keys: wiremodel.Keys(s)}
	// The user model's first message is the model's answer.
	user := &wiremodel.Handler{API: wiremodel.Anthropic, APIKey: anthropicKey,
		Keys: map[string]suite.Key{"Your net worth is S$2,394,755.": {Answer: "Is that in Singapore dollars?"}}}
	for _, h := range []*wiremodel.Handler{tested, user} {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		if h == tested {
			t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
		} else {
			t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
		}
	}
	t.Setenv("OPENAI_API_KEY", openaiKey)
	t.Setenv("ANTHROPIC_API_KEY", anthropicKey)
	t.Setenv("MCPEVAL_SPEND", "")

	run := filepath.Join(dir, "r")
	suitePath := filepath.Join(dir, "suite.yaml")
	_, stderr, code := cli("run", "--suite", suitePath, "--model", "fake:perfect", "--out", run, "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "anthropic:claude-haiku-4-5 calls a paid model API") || user.Count() != 0 {
		t.Fatalf("a paid user model without --spend: exit %d, %d requests: %s", code, user.Count(), stderr)
	}

	unpriced := filepath.Join(dir, "unpriced.yaml")
	if err := os.WriteFile(unpriced, []byte(strings.Replace(simulatedSuite, "anthropic:claude-haiku-4-5", "anthropic:no-such-user", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = cli("run", "--suite", unpriced, "--model", "fake:perfect", "--spend", "--budget-usd", "1", "--out", run, "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "--budget-usd: user model anthropic:no-such-user is not in the price table") || user.Count() != 0 {
		t.Fatalf("a dollar budget over an unpriced user model: exit %d: %s", code, stderr)
	}

	if _, stderr, code = cli("run", "--suite", suitePath, "--model", "openai:gpt-6-luna", "--spend", "--out", run, "--quiet"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	rec, err := record.Read(run)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndAnswered || len(a.Turns) != 3 || a.Answer != "Your net worth is S$2,394,755." {
		t.Fatalf("attempt %s after %d turns: %+v", a.End, len(a.Turns), a.Turns)
	}
	u := a.Turns[1].User
	if u == nil || u.Text != "Is that in Singapore dollars?" || u.Model == nil || u.Model.Spec != "anthropic:claude-haiku-4-5" || u.Turn == nil || u.Turn.Usage.Billed() == 0 || a.Turns[1].Usage.Billed() == 0 {
		t.Fatalf("the user's turn is recorded as %+v", u)
	}
	if got := user.Requests(); len(got) != 1 || !strings.Contains(string(got[0].Body), "Singapore dollars") || !strings.Contains(string(got[0].Body), suite.UserStop) {
		t.Errorf("the user model was asked %d times: want once, told what it knows and how to stop", len(got))
	}

	var sum usage.Summary
	b, err := os.ReadFile(filepath.Join(run, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	c := sum.Cases["agent/net-worth"]
	if len(sum.Users) != 1 || sum.Users[0].Model != "anthropic:claude-haiku-4-5" || sum.Users[0].Turns != 1 || sum.Users[0].CostUSD == nil || *sum.Users[0].CostUSD <= 0 {
		t.Fatalf("usage.json users %+v: want the user model's priced row", sum.Users)
	}
	if c.CostUSD == nil || *c.CostUSD <= 0 || c.Tokens == sum.Users[0].Tokens.Add(c.Tokens) {
		t.Errorf("case row %+v: want the model under test's own cost", c)
	}
	if sum.Total.CostUSD == nil || *sum.Total.CostUSD != *c.CostUSD+*sum.Users[0].CostUSD {
		t.Errorf("total %v: want the model's %v and the user's %v", sum.Total.CostUSD, *c.CostUSD, *sum.Users[0].CostUSD)
	}

	asked := tested.Count() + user.Count()
	if _, stderr, code = cli("score", run); code != exitOK {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if n := tested.Count() + user.Count(); n != asked {
		t.Errorf("score asked the models %d more times", n-asked)
	}
}
