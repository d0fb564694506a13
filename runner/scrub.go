package runner

import (
	"encoding/json"
	"os"

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
//
// Every secret value mcpeval itself holds is also removed by value from
// every string of the header and of each attempt, whatever its shape: the
// values of the environment's secret-named variables (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, GITHUB_TOKEN, any *_KEY, *_TOKEN, *_SECRET, *_PASSWORD),
// and the target's header and environment values once expanded. A tool
// that echoes a provider key cannot get it into the record.
type scrubber struct {
	r     *redact.Redactor
	known *redact.Known
}

func newScrubber(t target.Config) scrubber {
	r, _ := redact.New(nil, nil)
	r.AddTarget(t.Spec, t.Headers, t.Env, nil)
	for _, sv := range t.Servers { // each of several servers
		r.AddTarget(sv.Config.Spec, sv.Config.Headers, sv.Config.Env, nil)
	}
	known := redact.FromEnviron(os.Environ())
	for _, v := range t.Secrets(nil).Values() {
		known.Add(v)
	}
	return scrubber{r, known}
}

func (s scrubber) errText(msg string) string {
	return s.known.Scrub(s.r.Literals(redact.Secrets(msg)))
}

// text scrubs a string that is not an error: the configuration's values,
// the known secrets and a URL's user info, but not what merely looks like
// a credential (graders read it).
func (s scrubber) text(v string) string { return s.known.Scrub(s.r.Literals(redact.UserInfo(v))) }

// needed reports whether v may hold anything to scrub by value: the
// configuration's values always may; a known secret or a URL's user info
// only when it is there. A record is rewritten (its JSON re-encoded) only when needed.
func (s scrubber) needed(v any) bool {
	if !s.r.Empty() {
		return true
	}
	b, err := json.Marshal(v)
	return err != nil || s.known.Find(b) > 0 || redact.UserInfo(string(b)) != string(b)
}

// header scrubs a header before it is written.
func (s scrubber) header(h *record.Header) {
	for i := range h.Preflight.Checks {
		c := &h.Preflight.Checks[i]
		for j := range c.Problems {
			c.Problems[j] = s.errText(c.Problems[j])
		}
	}
	if s.needed(h) {
		redact.Walk(h, s.text)
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
	if s.needed(a) {
		redact.Walk(a, s.text)
	}
}

// Scrubber removes from text what a run removes from its record, for
// commands that show a target's answers outside a run (mcpeval call).
type Scrubber struct{ s scrubber }

// NewScrubber returns the scrubber a run against target t uses.
func NewScrubber(t target.Config) Scrubber { return Scrubber{newScrubber(t)} }

// Text scrubs what a server returned, as a recorded result is scrubbed:
// the configuration's values and the known secrets.
func (s Scrubber) Text(v string) string { return s.s.text(v) }

// Error scrubs an error message as a recorded one is scrubbed: also every
// credential recognised by its shape.
func (s Scrubber) Error(msg string) string { return s.s.errText(msg) }
