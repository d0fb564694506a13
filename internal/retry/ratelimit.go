package retry

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// RateLimits reads the rate-limit headers of a provider's answer, received
// at now: Anthropic's anthropic-ratelimit-requests-{limit,remaining,reset}
// and anthropic-ratelimit-{tokens,input-tokens,output-tokens}-* (reset as
// an RFC 3339 time), or OpenAI's x-ratelimit-{limit,remaining,reset}-
// {requests,tokens} (reset as a duration such as "1s" or "6m0s"). Of
// several token limits it keeps the one with the smallest share left. It
// returns nil when the headers say nothing of either.
func RateLimits(h http.Header, now time.Time) *model.RateLimit {
	if h == nil {
		return nil
	}
	rl := &model.RateLimit{}
	if l, ok := limitOf(h, now, "anthropic-ratelimit-requests-limit", "anthropic-ratelimit-requests-remaining", "anthropic-ratelimit-requests-reset"); ok {
		rl.Requests, rl.RequestsLeft, rl.RequestsReset = l.limit, l.left, l.reset
	} else if l, ok := limitOf(h, now, "x-ratelimit-limit-requests", "x-ratelimit-remaining-requests", "x-ratelimit-reset-requests"); ok {
		rl.Requests, rl.RequestsLeft, rl.RequestsReset = l.limit, l.left, l.reset
	}
	var tightest *limit
	for _, kind := range []string{"tokens", "input-tokens", "output-tokens"} {
		p := "anthropic-ratelimit-" + kind + "-"
		if l, ok := limitOf(h, now, p+"limit", p+"remaining", p+"reset"); ok && (tightest == nil || l.share() < tightest.share()) {
			tightest = &l
		}
	}
	if l, ok := limitOf(h, now, "x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens"); ok && (tightest == nil || l.share() < tightest.share()) {
		tightest = &l
	}
	if tightest != nil {
		rl.Tokens, rl.TokensLeft, rl.TokensReset = tightest.limit, tightest.left, tightest.reset
	}
	if rl.Requests == 0 && rl.Tokens == 0 {
		return nil
	}
	return rl
}

// limit is one limit a provider reported.
type limit struct {
	limit, left int64
	reset       time.Time
}

func (l limit) share() float64 { return float64(l.left) / float64(l.limit) }

// limitOf reads one limit from its three headers; ok is false unless the
// limit and what is left are both there and make sense. A reset that
// cannot be read is taken as now.
func limitOf(h http.Header, now time.Time, limitKey, leftKey, resetKey string) (limit, bool) {
	n, err1 := strconv.ParseInt(strings.TrimSpace(h.Get(limitKey)), 10, 64)
	left, err2 := strconv.ParseInt(strings.TrimSpace(h.Get(leftKey)), 10, 64)
	if err1 != nil || err2 != nil || n <= 0 || left < 0 {
		return limit{}, false
	}
	return limit{limit: n, left: min(left, n), reset: resetAt(h.Get(resetKey), now)}, true
}

// resetAt reads a reset as an RFC 3339 time, a Go-style duration ("1s",
// "6m0s", "20ms") or a number of seconds from now.
func resetAt(v string, now time.Time) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return now
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(d)
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return now.Add(time.Duration(s * float64(time.Second)))
	}
	return now
}

// RateLimit returns what the try's answer said of the rate limits, read
// when it arrived; nil when it said nothing or no answer came.
func (e *Exchange) RateLimit() *model.RateLimit {
	e.mu.Lock()
	defer e.mu.Unlock()
	return RateLimits(e.header, e.received)
}
