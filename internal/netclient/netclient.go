// Package netclient holds what every HTTP client mcpeval makes for a model
// provider or a target shares: one connection pool sized for a run's
// concurrency, and the rule that a redirect stays within the origin the
// request was made to, so that the keys and tokens configured for a host go
// to that host only.
package netclient

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// MaxIdlePerHost is how many idle connections to one host the pool keeps:
// as many as attempts may run at once (run's --concurrency is at most
// 1024). The standard library's default keeps two, so when a wave of
// concurrent requests to one model API over HTTP/1.1 finishes, all but two
// of its connections are closed and the next wave dials (and over TLS,
// shakes hands) again. An idle connection is closed after the transport's
// IdleConnTimeout (90 s) all the same.
const MaxIdlePerHost = 1024

// Transport is the transport under every client made for a provider or a
// target: http.DefaultTransport's settings (proxy from the environment,
// timeouts, HTTP/2) with a pool of MaxIdlePerHost connections a host.
var Transport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 0 // no limit over all hosts; each host's is MaxIdlePerHost
	t.MaxIdleConnsPerHost = MaxIdlePerHost
	return t
})

// RedirectError says a server answered with a redirect that was not
// followed: one to another origin (scheme, host or port), where what was
// configured for the first must not go, or one from https to plain http.
type RedirectError struct {
	From, To string // the origins
	// Holds names what the request carries ("the target's headers and
	// tokens"), Moved what to do if the server has moved.
	Holds, Moved string
}

func (e *RedirectError) Error() string {
	if strings.HasPrefix(e.From, "https://") && !strings.HasPrefix(e.To, "https://") {
		return fmt.Sprintf("refused a redirect from %s to %s: it leaves https", e.From, e.To)
	}
	return fmt.Sprintf("refused a redirect from %s to %s: %s go to its own origin only; %s", e.From, e.To, e.Holds, e.Moved)
}

// MaxRedirects is how many same-origin redirects a request may follow.
const MaxRedirects = 10

// SameOrigin returns a CheckRedirect that follows a redirect only within
// the first request's origin (and so never from https to http), at most
// MaxRedirects times; a refusal is a *RedirectError naming holds and moved.
func SameOrigin(holds, moved string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		from, to := Origin(via[0].URL), Origin(req.URL)
		if from != to {
			return &RedirectError{From: from, To: to, Holds: holds, Moved: moved}
		}
		if len(via) >= MaxRedirects {
			return fmt.Errorf("stopped after %d redirects", MaxRedirects)
		}
		return nil
	}
}

// Origin returns u's scheme, host and port, the port made explicit.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}
