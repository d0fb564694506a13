package runner

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// tokenLimited is a model behind a tokens-per-window limit: each request
// takes cost tokens, a window allows per tokens, and a request over it is
// refused with a 429 (as a provider's retry would give up), saying so in
// the rate-limit fields of every answer.
type tokenLimited struct {
	per, cost int64
	window    time.Duration

	mu              sync.Mutex
	t0, last        time.Time
	win             time.Duration
	used            int64
	served, refused int
}

func (m *tokenLimited) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.t0.IsZero() {
		m.t0 = now
	}
	if k := now.Sub(m.t0) / m.window * m.window; k != m.win {
		m.win, m.used = k, 0
	}
	if m.used+m.cost > m.per {
		m.refused++
		return nil, &model.ProviderError{Tries: []model.Try{{Status: http.StatusTooManyRequests, Error: "rate_limit_error"}}}
	}
	m.used += m.cost
	m.served++
	m.last = now
	return &model.Response{
		Message:   model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: "ok"}}},
		Usage:     model.Usage{Input: m.cost - 10, Output: 10},
		RateLimit: &model.RateLimit{Tokens: m.per, TokensLeft: m.per - m.used, TokensReset: m.t0.Add(m.win + m.window)},
	}, nil
}

// TestAdaptiveTokens: under a tokens-per-window limit (1,000 tokens per
// 500 ms, 100 a request), 45 requests 8 at a time take within 10% of the
// bound (four full windows before the last 5 can start) with no more than
// a handful refused.
func TestAdaptiveTokens(t *testing.T) {
	m := &tokenLimited{per: 1000, cost: 100, window: 500 * time.Millisecond}
	g := newAdaptive(m, 8)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				for {
					_, err := g.Generate(context.Background(), &model.Request{})
					if err == nil {
						break
					}
				}
			}
		}()
	}
	for i := range 45 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	wall, bound := m.last.Sub(m.t0), 4*m.window
	t.Logf("%d requests in %v (bound %v), %d refused, limit %d at lowest", m.served, wall.Round(time.Millisecond), bound, m.refused, g.lowest)
	if wall > bound+bound/10 {
		t.Errorf("took %v, more than 10%% over the bound %v", wall, bound)
	}
	if m.refused > 5 {
		t.Errorf("%d refused, want no more than a handful", m.refused)
	}
}
