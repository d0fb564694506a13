package usage

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// States of a Cost.
const (
	// Priced: the model is in its provider's price table.
	Priced = "priced"
	// Unpriced: the model is real but no table prices it; its cost is
	// unknown, not zero.
	Unpriced = "unpriced"
	// Fake: a fake or scripted model, which costs nothing.
	Fake = "fake"
)

// Cost is what a run cost, as results show it: in all, per attempt and per
// passing attempt.
type Cost struct {
	// State is Priced, Unpriced or Fake.
	State string `json:"state"`
	// Attempts counts the recorded attempts, errors included; Passed the
	// passing ones.
	Attempts int `json:"attempts"`
	Passed   int `json:"passed"`
	// RunUSD is the run's cost; PerAttemptUSD is RunUSD / Attempts, and
	// PerSuccessUSD is RunUSD / Passed ("cost per success"). Each is nil
	// when unknown: an unpriced model, no attempt, no pass.
	RunUSD        *float64 `json:"run_usd,omitempty"`
	PerAttemptUSD *float64 `json:"per_attempt_usd,omitempty"`
	PerSuccessUSD *float64 `json:"per_success_usd,omitempty"`
	// Prices names the table that priced the run; nil for a fake model or
	// a provider with no table.
	Prices *record.PriceTable `json:"prices,omitempty"`
	// Note says where the price table differs from the one the run
	// recorded; empty when it does not.
	Note string `json:"note,omitempty"`
}

// IsFake reports whether a model is a fake or a script, by the record's
// flag or, for records that lack it, by the provider's name.
func IsFake(m model.Info) bool {
	return m.Fake || m.Provider == "fake" || m.Provider == "script"
}

// NewCost prices the record r, of which passed attempts passed, with
// prices (nil for the built-in tables).
func NewCost(r *record.Run, passed int, prices *price.Set) *Cost {
	paid := false
	for i := range r.Attempts {
		paid = paid || paidUser(&r.Attempts[i])
	}
	return costOf(&r.Header, len(r.Attempts), passed, paid, func() *Summary { return Summarize(r, prices) })
}

// costOf prices a run with header h, of which attempts were recorded and
// passed passed; summarize totals its usage, and is not called for a fake
// model unless a user model that is not a fake played a user in it
// (paidUsers): then the run costs what its users did.
func costOf(h *record.Header, attempts, passed int, paidUsers bool, summarize func() *Summary) *Cost {
	c := &Cost{Attempts: attempts, Passed: passed}
	var s *Summary
	if IsFake(h.Model) && paidUsers {
		return usersCost(c, summarize())
	}
	if IsFake(h.Model) {
		// A fake model under test costs nothing; a paid model answering
		// its server's sampling requests does.
		if s = summarize(); s.Total.SampledPaid {
			return pricedCost(c, s)
		}
		c.State = Fake
		zero := 0.0
		c.RunUSD, c.PerAttemptUSD = &zero, &zero
		if passed > 0 {
			c.PerSuccessUSD = &zero
		}
		return c
	}
	if s == nil {
		s = summarize()
	}
	c.Prices = s.Prices
	if rec := h.Prices; rec != nil && c.Prices != nil && rec.SHA256 != c.Prices.SHA256 {
		c.Note = fmt.Sprintf("priced with the %s table read %s; the run was priced with the table read %s (sha256 %.12s)", c.Prices.Provider, c.Prices.Read, rec.Read, rec.SHA256)
	}
	if c.Prices == nil || c.Prices.Unpriced {
		c.State = Unpriced
		return c
	}
	return pricedCost(c, s)
}

// pricedCost sets c's dollars from s's total, or makes c unpriced when a
// figure in it is unknown.
func pricedCost(c *Cost, s *Summary) *Cost {
	if s.Total.CostUnknown {
		c.State = Unpriced
		return c
	}
	c.State = Priced
	total := 0.0
	if s.Total.CostUSD != nil {
		total = *s.Total.CostUSD
	}
	c.RunUSD = &total
	if c.Attempts > 0 {
		v := total / float64(c.Attempts)
		c.PerAttemptUSD = &v
	}
	if c.Passed > 0 {
		v := total / float64(c.Passed)
		c.PerSuccessUSD = &v
	}
	return c
}

// Run says the run's cost: "$1.2345", "unpriced" or "$0 (fake)".
func (c *Cost) Run() string { return c.say(c.RunUSD) }

// PerAttempt says the cost per attempt, as Run does.
func (c *Cost) PerAttempt() string { return c.say(c.PerAttemptUSD) }

// PerSuccess says the cost per passing attempt, as Run does; "no pass"
// when nothing passed.
func (c *Cost) PerSuccess() string {
	if c != nil && c.State != Unpriced && c.PerSuccessUSD == nil {
		return "no pass"
	}
	return c.say(c.PerSuccessUSD)
}

// Line says the three figures in one line:
// "$0.4200 per run, $0.0140 per attempt, $0.0200 per success".
func (c *Cost) Line() string {
	switch {
	case c == nil:
		return ""
	case c.State == Unpriced:
		return "unpriced: the price table does not list this model, so its cost is unknown"
	case c.State == Fake:
		return "$0 (fake): a fake model costs nothing"
	}
	return fmt.Sprintf("%s per run, %s per attempt, %s per success", c.Run(), c.PerAttempt(), c.PerSuccess())
}

// Source says which prices the figures use, for a footnote: "prices read
// 2026-11-29 from URL (sha256 0123456789ab)"; empty when none did.
func (c *Cost) Source() string {
	if c == nil || c.Prices == nil {
		return ""
	}
	s := fmt.Sprintf("%s prices read %s", c.Prices.Provider, c.Prices.Read)
	if c.Prices.Source != "" {
		s += " from " + c.Prices.Source
	}
	if c.Prices.File != "" {
		s += " via " + c.Prices.File
	}
	return s + fmt.Sprintf(" (sha256 %.12s)", c.Prices.SHA256)
}

func (c *Cost) say(v *float64) string {
	switch {
	case c == nil:
		return "—"
	case c.State == Unpriced:
		return "unpriced"
	case c.State == Fake:
		return "$0 (fake)"
	case v == nil:
		return "—"
	}
	return Dollars(*v)
}

// Dollars formats an amount: four decimals under a dollar, two above.
func Dollars(v float64) string {
	if v < 1 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// ToolTokens estimates the tokens the definitions of tools take in every
// request (name, title, description and input schema) at four characters
// a token, as the prompt-cache warning estimates the prefix every request
// shares. It reads the definitions, not a provider's count, so it is the
// same for every model, fake or real.
func ToolTokens(tools []record.Tool) int {
	n := 0
	for _, t := range tools {
		n += len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema)
	}
	return n / 4
}
