package target

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/mcpeval/mcpeval/internal/netclient"
	"github.com/mcpeval/mcpeval/internal/redact"
)

// baseTransport is the transport under every HTTP client mcpeval makes for
// a target (a test swaps it for one that trusts its TLS server).
var baseTransport http.RoundTripper = netclient.Transport()

// RedirectError says a target's server, or its authorization server,
// answered with a redirect mcpeval refuses to follow: one to another
// origin (scheme, host or port), where the headers and tokens configured
// for the target must not go, or one from https to plain http. An MCP
// endpoint that has moved is a misconfiguration: the suite or the flag
// must name the new URL.
type RedirectError = netclient.RedirectError

// IsRedirect reports whether err is, or wraps, a refused redirect.
func IsRedirect(err error) bool {
	var re *RedirectError
	return errors.As(err, &re)
}

// checkRedirect is the CheckRedirect of every HTTP client made for a
// target: it follows a redirect only within the first request's origin,
// and never from https to http.
var checkRedirect = netclient.SameOrigin("the target's headers and tokens", "name the new URL if the server has moved")

// origin returns u's scheme, host and port, the port made explicit.
func origin(u *url.URL) string { return netclient.Origin(u) }

// headerTransport adds the target's configured headers to the requests
// that go to its own origin, and to no other; it bounds every response
// body.
type headerTransport struct {
	base    http.RoundTripper
	origin  string
	headers http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if origin(r.URL) == t.origin {
		r = r.Clone(r.Context())
		for k, vs := range t.headers {
			r.Header[k] = vs
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		resp.Body = limitBody(resp.Body, MaxResponseBytes)
	}
	return resp, err
}

// httpClient returns the client an HTTP target at endpoint is reached
// with: headers go to its origin only, and redirects stay there.
func httpClient(endpoint string, headers http.Header) (*http.Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("target %q: not a URL", redact.Secrets(endpoint))
	}
	return &http.Client{
		Transport:     &headerTransport{base: baseTransport, origin: origin(u), headers: headers},
		CheckRedirect: checkRedirect,
	}, nil
}
