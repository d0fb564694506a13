package pipeline

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// Secrets are the secret values a run of s scrubs from its record, as the
// runner registers them: the values of the secret-named variables of
// mcpeval's environment, and what s's target configuration makes secret
// (its header and env values, expanded). s may be nil.
func Secrets(s *suite.Suite) *redact.Known {
	k := redact.FromEnviron(os.Environ())
	if s == nil {
		return k
	}
	t, err := runner.ResolveTarget(s, runner.TargetOverrides{})
	if err != nil { // an mcp.json that cannot be read: the run would not start either
		return k
	}
	for _, v := range t.Secrets(nil).Values() {
		k.Add(v)
	}
	return k
}

// HideSecrets scrubs the values k holds from the text of s's cases that
// pages and exports show (the prompt, the working, the key's answer and
// its calls' string arguments, figure labels), in place: a secret
// written in a suite is scrubbed from the record, and so it is from what
// shows the suite beside the record. Grading against s is unchanged but
// for a key answer that held a secret, which now reads as the record does.
func HideSecrets(s *suite.Suite, k *redact.Known) {
	if s == nil || k.Len() == 0 {
		return
	}
	for _, c := range s.Cases {
		c.Prompt = k.Scrub(c.Prompt)
		c.Working = k.Scrub(c.Working)
		c.Key.Answer = k.Scrub(c.Key.Answer)
		for i := range c.Key.Calls {
			for name, v := range c.Key.Calls[i].Args {
				if str, ok := v.(string); ok {
					c.Key.Calls[i].Args[name] = k.Scrub(str)
				}
			}
		}
		for i := range c.Figures {
			c.Figures[i].Label = k.Scrub(c.Figures[i].Label)
		}
	}
}

// hideResultSecrets scrubs the values k holds from every string of res,
// in place: the suite's prompts and messages quoting its key reach the
// grades, which are written beside the record and printed.
func hideResultSecrets(res *grade.Result, k *redact.Known) error {
	if res == nil || k.Len() == 0 {
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("scrubbing the grades: %w", err)
	}
	if k.Find(b) == 0 {
		return nil
	}
	return redact.Walk(res, k.Scrub)
}
