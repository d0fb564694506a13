package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// User is a model that plays a case's user (a simulated user, the case's
// user:), and what the record says of it.
type User struct {
	Model model.Model
	Info  model.Info
}

// checkUsers refuses a run whose suite has a case whose user model the
// caller did not open (Config.Users).
func (cfg *Config) checkUsers() error {
	for _, spec := range cfg.Suite.UserModels() {
		if u, ok := cfg.Users[spec]; !ok || u.Model == nil {
			return fmt.Errorf("runner: the suite's user model %s is not open (Config.Users)", spec)
		}
	}
	return nil
}

// simulatedUser is where a model plays the user after the model's answer
// (afterAnswer), and reports whether the conversation ends there. The user
// model is asked what the user says next, given the conversation as the
// user saw it (userView) and a system prompt made from the case's user
// (userSystem); it ends the conversation by answering suite.UserStop, or
// nothing at all. Its request is recorded on the answer's turn, said or
// not, with its own usage; a user model that fails ends the attempt in a
// provider error. The case's max_user_turns caps how often it is asked.
func (cv *conversation) simulatedUser(ctx context.Context) (done bool) {
	if cv.userTurns() >= cv.c.UserTurnCap() {
		return true
	}
	u := cv.r.cfg.Users[cv.c.User.Model]
	info := u.Info
	ut := &record.UserTurn{Model: &info}
	last := &cv.a.Turns[len(cv.a.Turns)-1]
	last.User = ut
	req := &model.Request{CaseID: cv.c.ID, System: userSystem(cv.c.User, cv.a.Prompt), Messages: userView(cv.a.Turns)}
	t0 := time.Now()
	resp, err := u.Model.Generate(ctx, req)
	if err != nil {
		var pe *model.ProviderError
		if errors.As(err, &pe) {
			ut.Turn = &record.Turn{Tries: pe.Tries}
		}
		ut.Error = err.Error()
		switch {
		case ctx.Err() != nil:
			endInError(cv.a, record.KindCanceled, "interrupted", nil)
		case pe == nil && errors.Is(err, context.DeadlineExceeded):
			endInError(cv.a, record.KindTimeout, "user model "+info.Spec+": "+err.Error(), nil)
		default:
			endInError(cv.a, record.KindProvider, "user model "+info.Spec+": "+err.Error(), nil)
		}
		return true
	}
	lat := resp.Latency
	if lat == 0 {
		lat = time.Since(t0)
	}
	ut.Text = resp.Message.TextOf()
	ut.Turn = &record.Turn{Text: ut.Text, StopReason: resp.StopReason, Usage: resp.Usage, LatencyMS: lat.Milliseconds(), Tries: resp.Tries}
	capTurn(ut.Turn, cv.r.cfg.MaxOutputBytes)
	if Stops(ut.Text) {
		ut.Stop = true
		return true
	}
	cv.since = len(cv.a.Turns)
	// The answer graded is the one the conversation ends on.
	cv.a.Answer, cv.a.End = "", ""
	cv.req.Messages = append(cv.req.Messages, model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: ut.Text}}})
	return false
}

// Stops reports whether a simulated user's message ends the conversation:
// it holds suite.UserStop, or says nothing.
func Stops(text string) bool {
	return strings.TrimSpace(text) == "" || strings.Contains(text, suite.UserStop)
}

// userTurns counts the messages the user has said in the attempt so far.
func (cv *conversation) userTurns() int {
	n := 0
	for _, t := range cv.a.Turns {
		if t.User != nil && !t.User.Stop && t.User.Error == "" {
			n++
		}
	}
	return n
}

// noAnswer stands in the user's view for an answer with no text, which a
// provider would refuse as an empty message.
const noAnswer = "(the assistant said nothing)"

// userView is the conversation of turns as the user saw it, from the user
// model's side: each answer of the model under test (a turn without
// calls) is a user message, and what the user said after it an assistant
// message. The tools the model called, and what it said while calling
// them, are not shown: a user sees answers only. The opening prompt is in
// the system prompt (userSystem), so the view starts with a user message,
// as every provider requires.
func userView(turns []record.Turn) []model.Message {
	var msgs []model.Message
	say := func(role model.Role, text string) {
		msgs = append(msgs, model.Message{Role: role, Blocks: []model.Block{{Kind: model.Text, Text: text}}})
	}
	for _, t := range turns {
		if len(t.Calls) > 0 {
			continue
		}
		text := t.Text
		if strings.TrimSpace(text) == "" {
			text = noAnswer
		}
		say(model.User, text)
		if u := t.User; u != nil && !u.Stop && u.Error == "" && u.Text != "" {
			say(model.Assistant, u.Text)
		}
	}
	return msgs
}

// userSystem is the system prompt of the model playing user u, who opened
// the conversation with prompt: who the user is and what they want, the
// facts they reveal only when asked, and how to end the conversation.
func userSystem(u *suite.SimUser, prompt string) string {
	var b strings.Builder
	b.WriteString("You are playing a user who is talking to an AI assistant, to test the assistant. Stay in character: write only what this user says next, as plain text, one message at a time. Never act as the assistant, and never mention that you are playing a part.\n\n")
	b.WriteString("Who you are and what you want:\n<instructions>\n" + u.Instructions + "\n</instructions>\n\n")
	b.WriteString("You opened the conversation by saying:\n<opening>\n" + prompt + "\n</opening>\n\n")
	if len(u.Knows) == 0 {
		b.WriteString("You know no further facts: if the assistant asks for one, say you do not know.\n\n")
	} else {
		b.WriteString("Facts you know. Reveal a fact only when the assistant asks for it, and only that fact; never volunteer one:\n")
		for _, k := range u.KnownFacts() {
			fmt.Fprintf(&b, "- %s: %s\n", k, u.Knows[k])
		}
		b.WriteString("\n")
	}
	b.WriteString("When the assistant has done what you wanted, or says it cannot, answer exactly " + suite.UserStop + " and nothing else.")
	return b.String()
}
