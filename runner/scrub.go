package runner

import (
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// scrubber removes from what a run records what the target's
// configuration makes secret: the endpoint (an HTTP target's host, user
// info and query values) and the values of its headers and environment
// (a bearer token given as ${VAR}), wherever they appear. Error messages,
// server stderr and preflight problems, which quote requests and servers,
// also lose every credential recognised by its shape. Records never hold
// a token, a password, the endpoint or a tenant id that came from the
// configuration.
type scrubber struct{ r *redact.Redactor }

func newScrubber(t target.Config) scrubber {
	r, _ := redact.New(nil, nil)
	r.AddTarget(t.Spec, t.Headers, t.Env, nil)
	return scrubber{r}
}

func (s scrubber) errText(msg string) string { return s.r.Literals(redact.Secrets(msg)) }

// header scrubs a header before it is written.
func (s scrubber) header(h *record.Header) {
	for i := range h.Preflight.Checks {
		c := &h.Preflight.Checks[i]
		for j := range c.Problems {
			c.Problems[j] = s.errText(c.Problems[j])
		}
	}
	if !s.r.Empty() {
		redact.Walk(h, s.r.Literals)
	}
}

// attempt scrubs an attempt before it is written.
func (s scrubber) attempt(a *record.Attempt) {
	if a.Error != nil {
		a.Error.Message = s.errText(a.Error.Message)
		for i := range a.Error.Stderr {
			a.Error.Stderr[i] = s.errText(a.Error.Stderr[i])
		}
	}
	for i := range a.Turns {
		for j := range a.Turns[i].Tries {
			a.Turns[i].Tries[j].Error = s.errText(a.Turns[i].Tries[j].Error)
		}
	}
	if !s.r.Empty() {
		redact.Walk(a, s.r.Literals)
	}
}
