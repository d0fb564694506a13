package usage

import (
	"fmt"
	"io"
	"sort"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
)

// JudgeLine is what one judge model's asks cost a run: every ask made of
// it, for decline answers and against rubrics alike.
type JudgeLine struct {
	// Model names the judge model ("provider:name").
	Model string `json:"model"`
	// Asks counts the asks made; NotAsked those the run's budget stopped
	// (each a judge opinion not made).
	Asks     int `json:"asks"`
	NotAsked int `json:"not_asked,omitempty"`
	// Tokens are the asks' tokens.
	Tokens model.Usage `json:"tokens"`
	// CostUSD is what the asks cost; nil when the judge is not priced.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// AddJudges adds the judges' lines to the summary, one row per judge
// model, and their tokens and dollars to its total. A judge that is not
// priced makes the total's dollars unknown (nil), never lower.
func (s *Summary) AddJudges(lines []JudgeLine) {
	for _, l := range lines {
		if l.Asks == 0 && l.NotAsked == 0 {
			continue
		}
		s.Judges = append(s.Judges, l)
		s.Total.Tokens = s.Total.Tokens.Add(l.Tokens)
		switch {
		case l.CostUSD != nil && s.Total.CostUSD != nil:
			v := *s.Total.CostUSD + *l.CostUSD
			s.Total.CostUSD = &v
		case l.CostUSD == nil && l.Asks > 0:
			s.Total.CostUSD = nil
		}
	}
	sort.Slice(s.Judges, func(i, j int) bool { return s.Judges[i].Model < s.Judges[j].Model })
}

// NotAsked is how many judge asks the run's budget stopped.
func (s *Summary) NotAsked() int {
	n := 0
	for _, l := range s.Judges {
		n += l.NotAsked
	}
	return n
}

// judgeText writes what the judges cost, below the table.
func judgeText(w io.Writer, s *Summary) {
	for _, l := range s.Judges {
		fmt.Fprintf(w, "judge %s: %d asks, %d tokens (%d input, %d output), %s; counted in the total\n",
			l.Model, l.Asks, l.Tokens.Billed(), l.Tokens.Input+l.Tokens.CacheWrite+l.Tokens.CacheRead, l.Tokens.Output, dollars(l.CostUSD))
		if l.CostUSD == nil && l.Asks > 0 {
			fmt.Fprintf(w, "unpriced: judge %s is not in a price table, so the run's total cost is unknown\n", l.Model)
		}
	}
	if n := s.NotAsked(); n > 0 {
		fmt.Fprintf(w, "judge stopped: %d asks not made, the run's budget was spent (those answers have no judge opinion)\n", n)
	}
}

// SpendUsage counts one model call outside an attempt (a judge's ask),
// priced at p; nil p counts its tokens only.
func (b *Budget) SpendUsage(u model.Usage, p *price.Price) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens += u.Billed()
	if p != nil {
		b.usd += price.Cost(*p, u)
	}
}
