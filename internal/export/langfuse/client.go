package langfuse

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/redact"
)

// DefaultHost is Langfuse's cloud, used when no host is given.
const DefaultHost = "https://cloud.langfuse.com"

// Client calls Langfuse's public API with a project's keys (basic auth:
// the public key as user, the secret key as password). The keys are sent
// in the Authorization header only, and never appear in an error.
type Client struct {
	host, public, secret string
	// HTTP is the client requests go through (nil: a client with a 30s
	// timeout per request).
	HTTP *http.Client
	// Tries is how many times a request is tried when Langfuse is busy
	// (429) or failing (5xx) (0: 5).
	Tries int
	// Wait waits d, or until ctx is done (nil: a timer). Tests replace it
	// to see the waits without waiting.
	Wait func(ctx context.Context, d time.Duration) error
	// PageSize is how many traces or items a page of a listing asks for
	// (0: PageSize).
	PageSize int
}

// New returns a client of the Langfuse at host (DefaultHost when empty)
// with a project's public and secret keys.
func New(host, publicKey, secretKey string) (*Client, error) {
	if host == "" {
		host = DefaultHost
	}
	u, err := url.Parse(host)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("langfuse host %q: want an http:// or https:// URL such as %s", redact.Secrets(host), DefaultHost)
	}
	if publicKey == "" || secretKey == "" {
		return nil, errors.New("langfuse keys: set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY to a project's API keys")
	}
	return &Client{host: strings.TrimRight(host, "/"), public: publicKey, secret: secretKey}, nil
}

// Host is the Langfuse the client calls.
func (c *Client) Host() string { return c.host }

// Authorization is the value of the Authorization header.
func (c *Client) Authorization() string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.public+":"+c.secret))
}

// OTLPEndpoint is Langfuse's OpenTelemetry trace endpoint.
func (c *Client) OTLPEndpoint() string { return c.host + "/api/public/otel/v1/traces" }

// OTLPHeaders are the headers an OTLP exporter sends Langfuse: the keys,
// and the ingestion version that makes traces visible at once.
func (c *Client) OTLPHeaders() map[string]string {
	return map[string]string{"Authorization": c.Authorization(), "x-langfuse-ingestion-version": "4"}
}

// APIError is an answer of Langfuse's that is not a success.
type APIError struct {
	Method, Path string
	Status       int
	// Message is what Langfuse said, cut short.
	Message string
}

func (e *APIError) Error() string {
	what := fmt.Sprintf("Langfuse %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return what + ": the keys were refused (check LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY and LANGFUSE_HOST)"
	}
	if e.Message != "" {
		return what + ": " + e.Message
	}
	return what
}

// do sends body as JSON to path and decodes the answer into out (when not
// nil). A 429 is tried again after its Retry-After, a 5xx or a failed
// connection after a growing pause, up to Tries times.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return fmt.Errorf("encoding Langfuse %s %s: %w", method, path, err)
		}
	}
	tries := c.Tries
	if tries <= 0 {
		tries = 5
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	wait := c.Wait
	if wait == nil {
		wait = sleep
	}
	pause := 500 * time.Millisecond
	var last error
	for try := 1; ; try++ {
		var rd io.Reader
		if data != nil {
			rd = bytes.NewReader(data)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.host+path, rd)
		if err != nil {
			return fmt.Errorf("calling Langfuse %s %s: %w", method, path, err)
		}
		req.Header.Set("Authorization", c.Authorization())
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := hc.Do(req)
		after := pause
		switch {
		case err != nil:
			last = fmt.Errorf("calling Langfuse %s %s: %s", method, path, redact.Secrets(err.Error()))
		default:
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				if out != nil && len(msg) > 0 {
					if err := json.Unmarshal(msg, out); err != nil {
						return fmt.Errorf("reading Langfuse's answer to %s %s: %w", method, path, err)
					}
				}
				return nil
			}
			apiErr := &APIError{Method: method, Path: path, Status: resp.StatusCode, Message: message(msg)}
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return apiErr
			}
			last = apiErr
			if d, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
				after = d
			}
		}
		if try >= tries {
			return fmt.Errorf("%w (gave up after %d tries)", last, try)
		}
		if err := wait(ctx, min(after, time.Minute)); err != nil {
			return fmt.Errorf("%w (gave up: %v)", last, err)
		}
		pause = min(2*pause, 10*time.Second)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// message is the gist of an error answer: its "message" or "error" field,
// or its text, on one line, cut short and with credentials removed.
func message(b []byte) string {
	var m struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
	}
	s := strings.TrimSpace(string(b))
	if json.Unmarshal(b, &m) == nil {
		switch {
		case m.Message != "":
			s = m.Message
		case m.Error != nil:
			s = fmt.Sprint(m.Error)
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return redact.Secrets(s)
}

// Ping asks Langfuse which project the keys open (GET /api/public/projects)
// and returns its name: a refused key is found before anything is sent.
func (c *Client) Ping(ctx context.Context) (string, error) {
	var out struct {
		Data []struct {
			Name string `json:"name"`
		} `json:"data"`
	}
	if err := c.do(ctx, "GET", "/api/public/projects", nil, &out); err != nil {
		return "", err
	}
	if len(out.Data) == 0 {
		return "", nil
	}
	return out.Data[0].Name, nil
}
