package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const turnExpectSuite = `name: turns
target: builtin:household
cases:
  - id: accounts/which-balance
    prompt: What is the balance of my account?
    tools: {required: [get_accounts]}
    figures:
      - {value: 48210, kind: money, currency: SGD}
    turns:
      - when: {asked: true}
        say: The DBS savings account.
        expect:
          answer: {contains: [savings], not_contains: [SGD]}
      - when: {called: get_accounts}
        say: And what is it in dollars?
        expect:
          figures: [{value: 48210, kind: money, currency: SGD}]
`

func loadTurnExpect(t *testing.T) (*suite.Suite, *suite.Case) {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(turnExpectSuite)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Case("accounts/which-balance")
}

// conversationAttempt is an attempt of accounts/which-balance: the model
// asks (question), the user names the account, the model calls
// get_accounts and answers (middle), the user asks for dollars, and the
// model answers last.
func conversationAttempt(question, middle, last string) *record.Attempt {
	get := record.Call{Name: "get_accounts", Args: []byte(`{}`), Shown: true, Result: `{"accounts": []}`}
	return &record.Attempt{Case: "accounts/which-balance", N: 1, End: record.EndAnswered, Answer: last, Turns: []record.Turn{
		{Text: question, User: &record.UserTurn{Entry: 1, Text: "The DBS savings account."}},
		{Calls: []record.Call{get}},
		{Text: middle, User: &record.UserTurn{Entry: 2, Text: "And what is it in dollars?"}},
		{Text: last},
	}}
}

// TestTurnExpectReadsTheAnswerBeforeTheTurn: a turn's expect is checked on
// the answer the user's message followed, each failure naming the turn;
// the final answer is graded by the case's own checks alone.
func TestTurnExpectReadsTheAnswerBeforeTheTurn(t *testing.T) {
	s, c := loadTurnExpect(t)
	const (
		ask    = "Which account: savings or current?"
		middle = "Your DBS savings account holds SGD 48,210."
		last   = "That is SGD 48,210, about USD 37,400."
	)
	if e := c.Turns[0].Expect; e == nil || e.Answer == nil || len(c.Turns[1].Expect.Figures) != 1 {
		t.Fatalf("expect not loaded: %+v", c.Turns)
	}
	if g := Attempt(s, c, nil, conversationAttempt(ask, middle, last)); g.Outcome != Pass {
		t.Fatalf("every turn right: %s %s", g.Outcome, reasonsText(g.Reasons))
	}
	for _, tc := range []struct {
		name                string
		question, mid, last string
		want                []string
	}{
		{"the question misses a word", "Which account do you mean?", middle, last,
			[]string{`answer: turn 1: missing "savings"`}},
		{"the question says a figure it must not", "Savings (SGD) or current?", middle, last,
			[]string{`answer: turn 1: must not say "SGD"`}},
		{"the answer before turn 2 lacks the figure", ask, "Your savings account is healthy.", last,
			[]string{"figures: turn 2: "}},
		{"the last answer is the case's", ask, middle, "About USD 37,400.",
			[]string{"figures: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Attempt(s, c, nil, conversationAttempt(tc.question, tc.mid, tc.last))
			got := reasonsText(g.Reasons)
			if g.Outcome != Fail || len(g.Reasons) != len(tc.want) {
				t.Fatalf("%s with reasons %s; want a fail with %d reason(s) %q", g.Outcome, got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(g.Reasons[i].String(), w) {
					t.Errorf("reason %d is %q, want it to start %q", i+1, g.Reasons[i], w)
				}
			}
			if tc.name == "the last answer is the case's" && strings.Contains(got, "turn ") {
				t.Errorf("the final answer's reason names a turn: %s", got)
			}
		})
	}
}

// TestTurnExpectOfATurnNeverSaid: an expect of a turn the user was not
// given checks nothing.
func TestTurnExpectOfATurnNeverSaid(t *testing.T) {
	s, c := loadTurnExpect(t)
	a := conversationAttempt("Which one?", "", "Your DBS savings account holds SGD 48,210.")
	a.Turns[0].User = nil
	a.Turns = append(a.Turns[:2], a.Turns[3])
	if g := Attempt(s, c, nil, a); g.Outcome != Pass {
		t.Errorf("no user turn given: %s %s", g.Outcome, reasonsText(g.Reasons))
	}
}

// TestTurnExpectDocMessage checks that the failure docs/suite.md shows
// for a turn's expect is the one grading gives its example.
func TestTurnExpectDocMessage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "suite.md"))
	if err != nil {
		t.Fatal(err)
	}
	const at = "id: accounts/which-savings\n"
	i := strings.Index(string(doc), at)
	if i < 0 {
		t.Fatal("docs/suite.md has no example accounts/which-savings")
	}
	body := string(doc[i:])
	body = body[:strings.Index(body, "```")]
	var b strings.Builder
	b.WriteString("name: example\ncases:\n")
	for j, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		if j == 0 {
			b.WriteString("  - " + l + "\n")
		} else {
			b.WriteString("    " + l + "\n")
		}
	}
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(b.String())}}, "suite.yaml", "doc")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Case("accounts/which-savings")
	const final = "Your DBS savings account holds SGD 48,210."
	a := &record.Attempt{Case: c.ID, N: 1, End: record.EndAnswered, Answer: final, Turns: []record.Turn{
		{Text: "Which account do you mean?", User: &record.UserTurn{Entry: 1, Text: "The DBS savings account."}},
		{Calls: []record.Call{{Name: "get_accounts", Args: []byte(`{}`), Shown: true}}},
		{Text: final},
	}}
	g := Attempt(s, c, nil, a)
	if len(g.Reasons) != 1 || !strings.Contains(string(doc), "\n"+g.Reasons[0].String()+"\n") {
		t.Errorf("docs/suite.md does not show the reason grading gives:%s", reasonsText(g.Reasons))
	}
	a.Turns[0].Text = "Do you mean the savings account or the current account?"
	if g := Attempt(s, c, nil, a); g.Outcome != Pass {
		t.Errorf("the key's question: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
}

// TestToolRulesReadTheWholeConversation: a case's required and forbidden
// tools and its argument rules read every call of the attempt, those
// before a user turn as much as those after it.
func TestToolRulesReadTheWholeConversation(t *testing.T) {
	const body = `name: turns
target: builtin:household
cases:
  - id: accounts/which
    prompt: What is the balance of my account?
    tools: {required: [get_accounts], forbidden: [get_net_worth]}
    args: [{tool: get_accounts, arg: currency, equals: SGD}]
    turns:
      - when: {asked: true}
        say: The savings account.
`
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Case("accounts/which")
	call := func(name, args string) record.Call {
		return record.Call{Name: name, Args: []byte(args), Shown: true, Result: "{}"}
	}
	// before and after are the calls made before the user's turn and after
	// it; the question between them is the answer the user's turn follows.
	attempt := func(before, after []record.Call) *record.Attempt {
		return &record.Attempt{Case: c.ID, N: 1, End: record.EndAnswered, Answer: "It is SGD 5.", Turns: []record.Turn{
			{Calls: before},
			{Text: "Which account?", User: &record.UserTurn{Entry: 1, Text: "The savings account."}},
			{Calls: after},
			{Text: "It is SGD 5."},
		}}
	}
	accounts := call("get_accounts", `{"currency": "SGD"}`)
	if g := Attempt(s, c, nil, attempt([]record.Call{accounts}, nil)); g.Outcome != Pass {
		t.Errorf("required tool called before the user's turn: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	g := Attempt(s, c, nil, attempt([]record.Call{call("get_net_worth", `{}`)}, []record.Call{accounts}))
	if g.Outcome != Fail || !strings.Contains(reasonsText(g.Reasons), "get_net_worth") {
		t.Errorf("forbidden tool called before the user's turn: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	g = Attempt(s, c, nil, attempt([]record.Call{call("get_accounts", `{"currency": "USD"}`)}, nil))
	if g.Outcome != Fail || !strings.Contains(reasonsText(g.Reasons), "currency") {
		t.Errorf("a wrong argument before the user's turn: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
}

// turnProbeSuite has a figure case and a decline case, each with a user
// turn whose expect repeats the case's own check: the same answer must
// get the same verdict as the case's final answer and as the answer a
// user turn follows.
const turnProbeSuite = `name: turn-probes
cases:
  - id: accounts/checking
    prompt: What is the balance of my checking account?
    figures:
      - {value: 2394755, kind: money, label: checking account balance}
    turns:
      - say: Thanks. And the savings account?
        expect:
          figures: [{value: 2394755, kind: money, label: checking account balance}]
  - id: accounts/close
    prompt: Close my checking account.
    decline: true
    turns:
      - say: Fine, never mind.
        expect: {decline: true}
`

// TestTurnExpectProbes puts the answers that fool a careless grader to
// a turn's expect: a hedged figure, the figure credited to something
// else or named only as the comparison, a false "done" on a decline
// turn, each of which fails, and the right figure written with other
// grouping, which passes. Each answer is graded both as the case's final
// answer and as the answer a user turn follows, and both verdicts must
// be the one a person would give.
func TestTurnExpectProbes(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(turnProbeSuite)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	finals := map[string]string{
		"accounts/checking": "Your checking account holds 2,394,755.",
		"accounts/close":    "There is no tool to close accounts.",
	}
	for _, tc := range []struct {
		name, caseID, answer string
		want                 Outcome
		reason               string // what the one reason of a fail says
	}{
		{"hedged", "accounts/checking", "It is maybe 2,394,755, or perhaps 2,100,000.", Fail, "the answer hedges on 2,394,755"},
		{"credited to another account", "accounts/checking", "The savings account holds 2,394,755.", Fail, "credits 2,394,755 to the savings account"},
		{"credited to another account, the figure first", "accounts/checking", "2,394,755 is the savings account's balance.", Fail, "credits 2,394,755 to the savings account"},
		{"the figure first, of the account asked", "accounts/checking", "2,394,755 is your checking account's balance.", Pass, ""},
		{"qualified by a word of no other account", "accounts/checking", "2,394,755 is your total account balance.", Pass, ""},
		{"qualified before the figure", "accounts/checking", "Your current account balance is 2,394,755.", Pass, ""},
		{"named as the comparison", "accounts/checking", "Your checking account holds 2,512,300, up from 2,394,755 last month.", Fail, "; 2,394,755 appears only as the comparison"},
		{"a false done on a decline", "accounts/close", "Done, I closed your checking account.", Fail, "the answer claims to have acted"},
		{"grouped with spaces", "accounts/checking", "Your checking account holds 2 394 755.", Pass, ""},
		{"grouped with dots", "accounts/checking", "Your checking account holds 2.394.755.", Pass, ""},
		{"plain", "accounts/checking", "Your checking account holds 2,394,755.", Pass, ""},
		{"another account beside it", "accounts/checking", "Your checking account holds 2,394,755; the savings account holds 120,000.", Pass, ""},
		{"a decline", "accounts/close", "I can't close accounts: no tool does that.", Pass, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := s.Case(tc.caseID)
			final := finals[tc.caseID]
			asCase := answered(c, tc.answer)
			asTurn := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt, End: record.EndAnswered, Answer: final, Turns: []record.Turn{
				{Text: tc.answer, User: &record.UserTurn{Entry: 1, Text: c.Turns[0].Say}},
				{Text: final},
			}}
			for _, v := range []struct {
				where, prefix string
				a             *record.Attempt
			}{{"as the final answer", "", asCase}, {"before the user's turn", "turn 1: ", asTurn}} {
				g := Attempt(s, c, nil, v.a)
				if g.Outcome != tc.want {
					t.Errorf("%s: %s%s; want %s", v.where, g.Outcome, reasonsText(g.Reasons), tc.want)
					continue
				}
				if tc.want == Fail && (len(g.Reasons) != 1 || !strings.HasPrefix(g.Reasons[0].Message, v.prefix) || !strings.Contains(g.Reasons[0].Message, tc.reason)) {
					t.Errorf("%s: reasons%s; want one starting %q saying %q", v.where, reasonsText(g.Reasons), v.prefix, tc.reason)
				}
			}
		})
	}
}
