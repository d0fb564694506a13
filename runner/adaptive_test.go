package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

func TestControl(t *testing.T) {
	c := control{Limit: 8, Max: 8}
	plenty := observation{Headroom: -1}
	if got := c.next(plenty); got.Limit != 8 {
		t.Errorf("grew past Max: %+v", got)
	}
	c = c.next(observation{Throttled: true, Headroom: -1})
	if c.Limit != 4 {
		t.Errorf("a refusal for the rate limit left the limit at %d, want 4", c.Limit)
	}
	for range 3 {
		c = c.next(plenty)
	}
	if c.Limit != 4 {
		t.Errorf("grew after 3 answers at limit 4: %d", c.Limit)
	}
	c = c.next(plenty)
	if c.Limit != 5 {
		t.Errorf("did not grow by one after a round of 4 answers with headroom: %d", c.Limit)
	}
	for range 20 {
		c = c.next(observation{Headroom: 9}) // under twice the limit
	}
	if c.Limit != 5 {
		t.Errorf("grew near the limit: %d", c.Limit)
	}
	for range 5 {
		c = c.next(observation{Throttled: true, Headroom: 0})
	}
	if c.Limit != 1 {
		t.Errorf("limit %d after five refusals, want the floor of 1", c.Limit)
	}
	for range 100 {
		c = c.next(observation{Headroom: 1000})
	}
	if c.Limit != 8 {
		t.Errorf("limit %d after 100 answers with headroom, want back at Max 8", c.Limit)
	}
}

// rateLimited is a stand-in for the Messages API that allows per requests
// in each fixed window of the given length (from its first request),
// saying so in Anthropic's rate-limit headers, and refuses any more with a
// 429 and a retry-after until the window's end, as the API does.
type rateLimited struct {
	per    int
	window time.Duration
	// quiet sends no rate-limit headers but retry-after on a refusal, so
	// that no client can keep under the limit by reading them.
	quiet bool

	mu              sync.Mutex
	t0, last        time.Time
	win             time.Duration
	used            int
	served, refused int
}

func (s *rateLimited) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	now := time.Now()
	if s.t0.IsZero() {
		s.t0 = now
	}
	if k := now.Sub(s.t0) / s.window * s.window; k != s.win {
		s.win, s.used = k, 0
	}
	reset := s.t0.Add(s.win + s.window)
	ok := s.used < s.per
	if ok {
		s.used++
		s.served++
	} else {
		s.refused++
	}
	left := s.per - s.used
	s.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if !s.quiet {
		h.Set("anthropic-ratelimit-requests-limit", strconv.Itoa(s.per))
		h.Set("anthropic-ratelimit-requests-remaining", strconv.Itoa(left))
		h.Set("anthropic-ratelimit-requests-reset", reset.UTC().Format(time.RFC3339Nano))
	}
	if !ok {
		h.Set("retry-after", fmt.Sprintf("%.3f", time.Until(reset).Seconds()))
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your per-minute rate limit"}}`)
		return
	}
	answer := providers[0].callTool
	if bytes.Contains(body, providers[0].isResult) {
		answer = providers[0].answer
	}
	io.WriteString(w, answer)
	s.mu.Lock()
	s.last = time.Now()
	s.mu.Unlock()
}

// TestAdaptiveConcurrency: against a provider allowing 60 requests per 2 s
// window (a requests-per-minute limit, time scaled down), a run of 150
// requests at --concurrency 16 takes within 10% of the limit's bound (two
// full windows before the last 30 requests can start) and provokes no more
// than a handful of 429s.
func TestAdaptiveConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 4 s")
	}
	st := &rateLimited{per: 60, window: 2 * time.Second}
	srv := httptest.NewServer(st)
	defer srv.Close()
	p := providers[0]
	info, err := model.ParseSpec(p.spec)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.new(info, srv.URL, retry.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	s := loadSuite(t, testSuite)
	const attempts = 75 // two requests each
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: info, OutDir: t.TempDir(),
		Attempts: attempts, Concurrency: 16, Cases: []string{"g/total"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rec.Attempts {
		if a.End != record.EndAnswered {
			t.Errorf("attempt %d ended %s: %+v", a.N, a.End, a.Error)
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	wall := st.last.Sub(st.t0)
	bound := 2 * st.window
	t.Logf("%d requests in %v (bound %v), %d refused", st.served, wall.Round(time.Millisecond), bound, st.refused)
	if st.served != 2*attempts {
		t.Errorf("served %d requests, want %d", st.served, 2*attempts)
	}
	if wall > bound+bound/10 {
		t.Errorf("took %v, more than 10%% over the limit's bound of %v", wall, bound)
	}
	if st.refused > 5 {
		t.Errorf("%d requests refused for the rate limit, want no more than a handful", st.refused)
	}
}

// TestThrottleIsRecorded: refusals for the rate limit are said at the end
// of the record, with how far the requests in flight came down. The
// stand-in sends no rate-limit headers, so refusals come however slowly a
// loaded machine sends the requests: eight requests, two a second.
func TestThrottleIsRecorded(t *testing.T) {
	st := &rateLimited{per: 2, window: time.Second, quiet: true}
	srv := httptest.NewServer(st)
	defer srv.Close()
	p := providers[0]
	info, _ := model.ParseSpec(p.spec)
	m, err := p.new(info, srv.URL, retry.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	s := loadSuite(t, testSuite)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: info, OutDir: t.TempDir(),
		Attempts: 4, Concurrency: 4, Cases: []string{"g/total"}})
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	refused := st.refused
	st.mu.Unlock()
	if refused == 0 || rec.End == nil {
		t.Fatalf("%d refused, end %+v: the test needs refusals", refused, rec.End)
	}
	want := fmt.Sprintf("the provider refused %d model requests for its rate limit", refused)
	if len(rec.End.Warnings) != 1 || !strings.Contains(rec.End.Warnings[0], want) || !strings.Contains(rec.End.Warnings[0], "of --concurrency 4") {
		t.Errorf("end warnings %q, want one saying %q", rec.End.Warnings, want)
	}
}
