// Package usage totals what a run cost: tokens by kind, dollars (from the
// price table, where the model is priced) and time, per case and in all.
// It reads the record only; it has no opinion on the grades.
package usage

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// Line is the cost of a set of attempts.
type Line struct {
	Attempts int         `json:"attempts"`
	Tokens   model.Usage `json:"tokens"`
	// CostUSD is the dollar cost; nil when the model is not priced.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// ModelMS is the time spent waiting for the model; WallMS the attempts'
	// wall time.
	ModelMS int64 `json:"model_ms"`
	WallMS  int64 `json:"wall_ms"`
	// Retries counts refused provider tries.
	Retries int `json:"retries"`

	// CostUnknown is set once a sampling turn answered by a model of no
	// known price was counted: the line's dollars are unknown from then
	// on (CostUSD nil). SampledPaid is set once a sampling turn answered
	// by a model other than a fake was counted: a run whose model under
	// test is fake then costs money. Each is written only when set, so
	// a summary read back from usage.json says what it said as made.
	CostUnknown bool `json:"cost_unknown,omitempty"`
	SampledPaid bool `json:"sampled_paid,omitempty"`
}

// Summary is a run's cost, per case and in total.
type Summary struct {
	Model string `json:"model"`
	// PriceRead is the date the price table was read; empty when the model
	// is not priced.
	PriceRead string `json:"price_read,omitempty"`
	// Prices names the table that priced the run; nil when its provider
	// has none.
	Prices *record.PriceTable `json:"prices,omitempty"`
	Cases  map[string]Line    `json:"cases"`
	// Judges are the judge models' asks, a row per judge; they count in
	// Total but in no case.
	Judges []JudgeLine `json:"judges,omitempty"`
	// Users are the simulated users' models (a case's user:), a row per
	// model; they count in Total but in no case.
	Users []UserLine `json:"users,omitempty"`
	// Total is the run's total: the model's attempts, the simulated
	// users' turns and the judges' asks.
	Total Line `json:"total"`
}

// Summarize totals a record's usage, priced with prices (nil for the
// built-in tables).
func Summarize(r *record.Run, prices *price.Set) *Summary {
	t := NewTally(&r.Header, prices)
	for i := range r.Attempts {
		t.Add(&r.Attempts[i])
	}
	return t.Summary()
}

// add counts attempt a into l; an attempt a batch answered costs the
// provider's batch share of its price.
func add(l *Line, a *record.Attempt, p price.Price, priced bool, batch price.BatchRate, prices *price.Set) {
	l.Attempts++
	l.WallMS += a.DurationMS
	for _, t := range a.Turns {
		l.Tokens = l.Tokens.Add(t.Usage)
		l.ModelMS += t.LatencyMS
		l.Retries += len(t.Tries)
		if priced && !l.CostUnknown {
			c := price.Cost(p, t.Usage)
			if a.Batch && batch.Share > 0 {
				c *= batch.Share
			}
			if l.CostUSD == nil {
				l.CostUSD = new(float64)
			}
			*l.CostUSD += c
		}
		for _, s := range t.Sampled() {
			addSampled(l, s, p, priced, prices)
		}
	}
}

// addSampled counts a sampling turn into l: its tokens and time, and its
// cost at the price of the model that answered (the model under test's,
// p, unless the suite named another, priced from prices; a model of no
// known price leaves the line's dollars unknown).
func addSampled(l *Line, s record.Sampling, p price.Price, priced bool, prices *price.Set) {
	l.Tokens = l.Tokens.Add(s.Turn.Usage)
	l.ModelMS += s.Turn.LatencyMS
	l.Retries += len(s.Turn.Tries)
	if s.Model != nil {
		p, priced = samplerPrice(*s.Model, prices)
		l.SampledPaid = l.SampledPaid || !IsFake(*s.Model)
	}
	if !priced {
		l.CostUnknown, l.CostUSD = true, nil
	}
	if l.CostUnknown {
		return
	}
	if l.CostUSD == nil {
		l.CostUSD = new(float64)
	}
	*l.CostUSD += price.Cost(p, s.Turn.Usage)
}

// samplerPrice prices m, the suite's sampling model, from prices (nil:
// the built-in tables); a fake costs nothing.
func samplerPrice(m model.Info, prices *price.Set) (price.Price, bool) {
	if IsFake(m) {
		return price.Price{}, true
	}
	if prices == nil {
		prices = price.Builtin()
	}
	return prices.Lookup(m.Provider, m.Name)
}

// Text writes the summary as a table: one row per case, then the total.
func Text(w io.Writer, s *Summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tattempts\tinput\toutput\tcache write\tcache read\tcost\tmodel time\tretries\t")
	ids := slices.Sorted(maps.Keys(s.Cases))
	row := func(name string, l Line) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t\n", name, l.Attempts, l.Tokens.Input, l.Tokens.Output,
			l.Tokens.CacheWrite, l.Tokens.CacheRead, dollars(l.CostUSD), (time.Duration(l.ModelMS) * time.Millisecond).Round(time.Millisecond), l.Retries)
	}
	for _, id := range ids {
		row(id, s.Cases[id])
	}
	for _, l := range s.Users {
		fmt.Fprintf(tw, "user %s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t\n", l.Model, l.Turns, l.Tokens.Input, l.Tokens.Output,
			l.Tokens.CacheWrite, l.Tokens.CacheRead, dollars(l.CostUSD), (time.Duration(l.ModelMS) * time.Millisecond).Round(time.Millisecond), l.Retries)
	}
	for _, l := range s.Judges {
		fmt.Fprintf(tw, "judge %s\t%d\t%d\t%d\t%d\t%d\t%s\t\t\t\n", l.Model, l.Asks, l.Tokens.Input, l.Tokens.Output,
			l.Tokens.CacheWrite, l.Tokens.CacheRead, dollars(l.CostUSD))
	}
	row("total", s.Total)
	if err := tw.Flush(); err != nil {
		return err
	}
	userText(w, s)
	judgeText(w, s)
	if t := s.Total.Tokens; t.Input+t.CacheWrite+t.CacheRead > 0 {
		// Whether the prompt cache hit: a prefix too short to cache reads 0%.
		fmt.Fprintf(w, "cached input: %.0f%% (%d of %d input tokens read from the prompt cache)\n",
			100*t.CachedShare(), t.CacheRead, t.Input+t.CacheWrite+t.CacheRead)
	}
	if IsFake(model.Info{Provider: modelProvider(s.Model)}) && s.PaidUsers() {
		_, err := fmt.Fprintf(w, "%s is a fake model: it costs nothing; the user models' rows are what the run cost\n", s.Model)
		return err
	}
	if IsFake(model.Info{Provider: modelProvider(s.Model)}) {
		msg := "%s is a fake model: it costs nothing\n"
		if s.Total.SampledPaid {
			msg = "%s is a fake model: only the suite's sampling model's tokens cost money\n"
		}
		_, err := fmt.Fprintf(w, msg, s.Model)
		return err
	}
	if s.PriceRead != "" {
		_, err := fmt.Fprintf(w, "prices as read on %s; check them against the provider's pricing page\n", s.PriceRead)
		return err
	}
	_, err := fmt.Fprintf(w, "unpriced: %s is not in a price table, so its cost is unknown (give one with --prices FILE)\n", s.Model)
	return err
}

// modelProvider is the provider of a model spec ("fake:perfect": "fake").
func modelProvider(spec string) string {
	p, _, _ := strings.Cut(spec, ":")
	return p
}

func dollars(c *float64) string {
	if c == nil {
		return "unpriced"
	}
	return fmt.Sprintf("$%.4f", *c)
}

// Budget stops a run at a number of billed tokens and, optionally,
// dollars. It is checked before each attempt, so no attempt is cut short;
// attempts in flight when it is reached still finish. It is safe for
// concurrent use.
type Budget struct {
	// Tokens is the most billed tokens (input, output, cache writes and
	// reads); 0 means no limit.
	Tokens int64
	// USD is the most dollars; 0 means no limit. A model that is not
	// priced cannot be held to a dollar budget.
	USD float64
	// Price prices the model, for USD.
	Price *price.Price
	// Prices prices the models other than the one under test: the
	// simulated users' models (a case's user:) and the suite's sampling
	// model, for USD; nil: the built-in tables.
	Prices *price.Set

	mu     sync.Mutex
	tokens int64
	usd    float64
}

// Exceeded says "budget" when the budget is spent, else "".
func (b *Budget) Exceeded() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if (b.Tokens > 0 && b.tokens >= b.Tokens) || (b.USD > 0 && b.usd >= b.USD) {
		return string(record.KindBudget)
	}
	return ""
}

// Spend counts a finished attempt.
func (b *Budget) Spend(a *record.Attempt) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spendUsers(a) // a simulated user's turns, each at its own model's price
	for _, t := range a.Turns {
		b.tokens += t.Usage.Billed()
		if b.Price != nil {
			c := price.Cost(*b.Price, t.Usage)
			if r, ok := price.Batch(b.Price.Provider); ok && a.Batch {
				c *= r.Share // answered in a batch, at the batch rate
			}
			b.usd += c
		}
		for _, s := range t.Sampled() { // a server's sampling, answered by a model
			b.tokens += s.Turn.Usage.Billed()
			p, ok := b.Price, b.Price != nil
			if s.Model != nil {
				var sp price.Price
				sp, ok = samplerPrice(*s.Model, b.Prices)
				p = &sp
			}
			if ok {
				b.usd += price.Cost(*p, s.Turn.Usage)
			}
		}
	}
}

// Spent returns the tokens and dollars counted so far.
func (b *Budget) Spent() (int64, float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokens, b.usd
}
