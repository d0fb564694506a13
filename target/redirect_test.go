package target_test

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/authserver"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elsewhere is a server at another origin that records every header value
// it is sent and answers 404.
type elsewhere struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		for k, vs := range r.Header {
			e.seen = append(e.seen, k+": "+strings.Join(vs, ","))
		}
		e.seen = append(e.seen, r.Method+" "+r.URL.String())
		e.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(e.Close)
	return e
}

// holds reports the header lines e was sent that hold one of secrets.
func (e *elsewhere) holds(secrets ...string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var got []string
	for _, l := range e.seen {
		for _, s := range secrets {
			if strings.Contains(l, s) {
				got = append(got, l)
			}
		}
	}
	return got
}

func (e *elsewhere) requests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, l := range e.seen {
		if strings.HasPrefix(l, "POST ") || strings.HasPrefix(l, "GET ") || strings.HasPrefix(l, "DELETE ") {
			n++
		}
	}
	return n
}

func pingServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "ping", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	return srv
}

// redirecting serves an MCP server behind "Authorization: Bearer token",
// except that the requests when says are answered with a redirect of code
// to the same path at to.
func redirecting(mcpHandler http.Handler, token string, code int, to string, when func(body []byte) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if when(body) {
			http.Redirect(w, r, to+r.URL.Path, code)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
}

func always([]byte) bool { return true }

func onCall(body []byte) bool { return bytes.Contains(body, []byte(`"tools/call"`)) }

func streamable(srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

// TestRedirectKeepsSecrets redirects an HTTP target, at initialize and
// after it, with each redirect status, to a server at another origin
// (another port; and from https to plain http): the connection or call
// fails naming both origins, and the other server is sent none of the
// target's headers, its bearer token included.
func TestRedirectKeepsSecrets(t *testing.T) {
	const token, apiKey = "tok-PLANTED-redirect", "key-PLANTED-redirect"
	t.Setenv("REDIRECT_TEST_TOKEN", token)
	headers := map[string]string{"Authorization": "Bearer ${REDIRECT_TEST_TOKEN}", "X-Api-Key": apiKey}
	for _, tls := range []bool{false, true} {
		for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			for _, stage := range []string{"initialize", "call"} {
				name := http.StatusText(code) + "/" + stage
				if tls {
					name = "https-to-http/" + name
				}
				t.Run(name, func(t *testing.T) {
					other := newElsewhere(t)
					when := always
					if stage == "call" {
						when = onCall
					}
					h := redirecting(streamable(pingServer()), token, code, other.URL, when)
					var ts *httptest.Server
					if tls {
						ts = httptest.NewUnstartedServer(h)
						ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes a closed client breaks
						ts.StartTLS()
						target.SetBaseTransport(t, ts.Client().Transport)
					} else {
						ts = httptest.NewServer(h)
					}
					defer ts.Close()
					cfg := target.Config{Spec: ts.URL + "/mcp", Headers: headers}
					conn, err := target.Dial(context.Background(), cfg)
					if stage == "call" {
						if err != nil {
							t.Fatal(err)
						}
						defer conn.Close()
						_, err = conn.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
					} else if err == nil {
						conn.Close()
					}
					if err == nil {
						t.Fatal("followed a redirect to another origin")
					}
					if !target.IsRedirect(err) {
						t.Errorf("error %v is not a refused redirect", err)
					}
					for _, want := range []string{"refused a redirect", strings.Replace(ts.URL, "localhost", "127.0.0.1", 1), other.URL} {
						if !strings.Contains(err.Error(), want) {
							t.Errorf("error does not say %q: %v", want, err)
						}
					}
					if tls && !strings.Contains(err.Error(), "leaves https") {
						t.Errorf("error does not say the redirect leaves https: %v", err)
					}
					if got := other.holds(token, apiKey); len(got) > 0 {
						t.Errorf("the other origin was sent %q", got)
					}
					if n := other.requests(); n != 0 {
						t.Errorf("the other origin was sent %d requests", n)
					}
				})
			}
		}
	}
}

// TestSameOriginRedirectFollowed follows a redirect to another path of
// the target's own origin, headers and all.
func TestSameOriginRedirectFollowed(t *testing.T) {
	const token = "tok-PLANTED-same"
	mux := http.NewServeMux()
	mux.Handle("/mcp", redirecting(streamable(pingServer()), token, 0, "", func([]byte) bool { return false }))
	mux.Handle("/old/mcp", http.RedirectHandler("/mcp", http.StatusPermanentRedirect))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	tools, err := dialTools(t, target.Config{Spec: ts.URL + "/old/mcp", Headers: map[string]string{"Authorization": "Bearer " + token}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 {
		t.Errorf("tools: %v", tools)
	}
}

// callRedirector answers the tools/call requests sent to the server at
// origin with a 307 to the same path at to, as a proxy in front of the
// server would, and passes every other request on.
type callRedirector struct{ origin, to string }

func (c callRedirector) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil && strings.HasPrefix(r.URL.String(), c.origin) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if onCall(body) {
			h := http.Header{"Location": {c.to + r.URL.Path}}
			return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: h, Body: http.NoBody, Request: r}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRedirectKeepsOAuthToken redirects the calls of an OAuth-protected
// target to another origin once it has its token: the call fails and the
// other origin never sees the token nor the client secret.
func TestRedirectKeepsOAuthToken(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "s3cret-PLANTED"}})
	other := newElsewhere(t)
	u, _ := url.Parse(endpoint)
	target.SetBaseTransport(t, callRedirector{origin: u.Scheme + "://" + u.Host, to: other.URL})
	t.Setenv("MCPEVAL_TEST_CLIENT_SECRET", "s3cret-PLANTED")
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: t.TempDir()}}
	conn, err := target.Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "open_vault"}); !target.IsRedirect(err) {
		t.Fatalf("call: %v, want a refused redirect", err)
	}
	issued := as.Issued()
	if len(issued) == 0 {
		t.Fatal("no token was issued")
	}
	if got := other.holds(append(issued, "s3cret-PLANTED")...); len(got) > 0 {
		t.Errorf("the other origin was sent %q", got)
	}
	if n := other.requests(); n != 0 {
		t.Errorf("the other origin was sent %d requests", n)
	}
}

// tokenRedirector answers the token requests sent to the authorization
// server at origin with a 307 to the same path at to.
type tokenRedirector struct{ origin, to string }

func (c tokenRedirector) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.URL.Path == "/token" && strings.HasPrefix(r.URL.String(), c.origin) {
		h := http.Header{"Location": {c.to + r.URL.Path}}
		return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: h, Body: http.NoBody, Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRedirectKeepsClientSecret redirects the authorization server's
// token endpoint to another origin: authorizing fails naming both
// origins, and the client secret is never sent there.
func TestRedirectKeepsClientSecret(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "s3cret-PLANTED"}})
	other := newElsewhere(t)
	target.SetBaseTransport(t, tokenRedirector{origin: as.URL, to: other.URL})
	t.Setenv("MCPEVAL_TEST_CLIENT_SECRET", "s3cret-PLANTED")
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: t.TempDir()}}
	_, err := dialTools(t, cfg)
	if err == nil || !strings.Contains(err.Error(), "refused a redirect from "+as.URL) {
		t.Errorf("Dial = %v, want a refused redirect from the token endpoint", err)
	}
	if n := other.requests(); n != 0 {
		t.Errorf("the other origin was sent %d requests: %q", n, other.holds(""))
	}
}
