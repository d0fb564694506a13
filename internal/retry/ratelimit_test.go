package retry

import (
	"net/http"
	"testing"
	"time"
)

func TestRateLimits(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	for _, tc := range []struct {
		name string
		h    http.Header
		// want: requests, left, reset after now; tokens, left, reset after now
		req, reqLeft, tok, tokLeft int64
		reqReset, tokReset         time.Duration
		none                       bool
	}{
		{name: "no headers", h: hdr(), none: true},
		{name: "nonsense", h: hdr("x-ratelimit-limit-requests", "many", "x-ratelimit-remaining-requests", "-1"), none: true},
		{name: "anthropic requests", h: hdr("anthropic-ratelimit-requests-limit", "50", "anthropic-ratelimit-requests-remaining", "0",
			"anthropic-ratelimit-requests-reset", "2026-11-30T12:00:01.5Z"), req: 50, reqLeft: 0, reqReset: 1500 * time.Millisecond},
		{name: "anthropic tightest tokens", h: hdr(
			"anthropic-ratelimit-tokens-limit", "100000", "anthropic-ratelimit-tokens-remaining", "90000", "anthropic-ratelimit-tokens-reset", "2026-11-30T12:00:10Z",
			"anthropic-ratelimit-output-tokens-limit", "8000", "anthropic-ratelimit-output-tokens-remaining", "100", "anthropic-ratelimit-output-tokens-reset", "2026-11-30T12:00:20Z"),
			tok: 8000, tokLeft: 100, tokReset: 20 * time.Second},
		{name: "openai", h: hdr("x-ratelimit-limit-requests", "500", "x-ratelimit-remaining-requests", "499", "x-ratelimit-reset-requests", "1m30s",
			"x-ratelimit-limit-tokens", "30000", "x-ratelimit-remaining-tokens", "40000", "x-ratelimit-reset-tokens", "20ms"),
			req: 500, reqLeft: 499, reqReset: 90 * time.Second, tok: 30000, tokLeft: 30000, tokReset: 20 * time.Millisecond},
		{name: "reset in seconds, or unreadable", h: hdr("x-ratelimit-limit-requests", "5", "x-ratelimit-remaining-requests", "4", "x-ratelimit-reset-requests", "2.5",
			"x-ratelimit-limit-tokens", "10", "x-ratelimit-remaining-tokens", "1", "x-ratelimit-reset-tokens", "soon"),
			req: 5, reqLeft: 4, reqReset: 2500 * time.Millisecond, tok: 10, tokLeft: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rl := RateLimits(tc.h, now)
			if tc.none {
				if rl != nil {
					t.Errorf("got %+v, want nil", rl)
				}
				return
			}
			if rl == nil {
				t.Fatal("got nil")
			}
			if rl.Requests != tc.req || rl.RequestsLeft != tc.reqLeft || rl.Tokens != tc.tok || rl.TokensLeft != tc.tokLeft {
				t.Errorf("got %+v", rl)
			}
			if tc.req > 0 && !rl.RequestsReset.Equal(now.Add(tc.reqReset)) {
				t.Errorf("requests reset %v, want now+%v", rl.RequestsReset, tc.reqReset)
			}
			if tc.tok > 0 && !rl.TokensReset.Equal(now.Add(tc.tokReset)) {
				t.Errorf("tokens reset %v, want now+%v", rl.TokensReset, tc.tokReset)
			}
		})
	}
}
