package fake

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// TestUser: fake:user answers a question with the facts it names, else
// with every fact, and stops on an answer that asks nothing.
func TestUser(t *testing.T) {
	s := &suite.Suite{Name: "demo", Cases: []*suite.Case{{ID: "a/b", User: &suite.SimUser{
		Model: "fake:user", Instructions: "You want a balance.",
		Knows: map[string]string{"account": "DBS savings", "home_city": "Singapore"},
	}}}}
	m, err := New("user", s)
	if err != nil {
		t.Fatal(err)
	}
	say := func(answers ...string) string {
		t.Helper()
		req := &model.Request{CaseID: "a/b"}
		for i, a := range answers {
			if i > 0 {
				req.Messages = append(req.Messages, Say("earlier"))
			}
			req.Messages = append(req.Messages, model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: a}}})
		}
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.Message.TextOf()
	}
	for _, tc := range []struct {
		answers []string
		want    string
	}{
		{[]string{"Which account do you mean?"}, "account: DBS savings"},
		{[]string{"Which home city is yours?"}, "home_city: Singapore"},
		{[]string{"Could you tell me more?"}, "account: DBS savings; home_city: Singapore"},
		{[]string{"Which account?", "Your DBS savings account holds SGD 48,210."}, suite.UserStop},
	} {
		if got := say(tc.answers...); got != tc.want {
			t.Errorf("after %q: said %q, want %q", tc.answers, got, tc.want)
		}
	}
	if got := UserAnswer(&suite.Case{}, "Which one?"); got != "I don't know." {
		t.Errorf("a user who knows nothing said %q", got)
	}
}
