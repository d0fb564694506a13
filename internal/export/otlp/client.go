package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
)

// client posts OTLP/HTTP protobuf requests to one endpoint, as the
// OpenTelemetry SDK's otlptracehttp and otlpmetrichttp exporters do.
//
// It is ours, not those exporters, for the weight of the binary: they
// link the collector's service packages (with their gRPC stubs),
// grpc-gateway, a backoff library, well-known protobuf types and their
// own configuration and retry packages, 33 packages that mcpeval linked
// for nothing else. Without them `go list -deps ./cmd/mcpeval` fell from
// 637 packages outside the standard library to 604, and the binary from
// 134,626,863 to 133,909,813 bytes (docs/performance.md, "Start-up and
// build"). What they did that mcpeval needs is here: the
// OTEL_EXPORTER_OTLP_* variables (endpoint, headers, compression,
// timeout, certificates), the protobuf encoding (transform.go) and the
// OTLP/HTTP retry rules.
type client struct {
	url     string
	headers map[string]string
	gzip    bool
	// timeout bounds each request; the caller's context bounds them all.
	timeout time.Duration
	http    *http.Client
}

// signal is what a client sends: its name in the per-signal variables
// (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and the path it is sent to.
type signal struct{ env, path string }

var (
	traces  = signal{"TRACES", "/v1/traces"}
	metrics = signal{"METRICS", "/v1/metrics"}
)

// newClient sets up a client for sig as opts and the environment say:
// opts.Endpoint and opts.Headers win over the variables, and a variable
// for the signal (OTEL_EXPORTER_OTLP_TRACES_HEADERS) over the general one.
// A request lasts at most what OTEL_EXPORTER_OTLP_TIMEOUT says, or
// min(timeout, 10s) without it.
func newClient(opts *Options, sig signal, timeout time.Duration, getenv func(string) string) (*client, error) {
	env := func(name string) string {
		if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + sig.env + "_" + name)); v != "" {
			return v
		}
		return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + name))
	}
	c := &client{timeout: min(timeout, 10*time.Second)}
	var err error
	if c.url, err = endpointURL(opts.Endpoint, sig, getenv); err != nil {
		return nil, err
	}
	c.headers = opts.Headers
	if c.headers == nil {
		c.headers = parseHeaders(env("HEADERS"))
	}
	switch v := strings.ToLower(env("COMPRESSION")); v {
	case "gzip":
		c.gzip = true
	case "", "none":
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_COMPRESSION %q: want gzip or none", v)
	}
	if ms, err := strconv.Atoi(env("TIMEOUT")); err == nil && ms > 0 {
		c.timeout = time.Duration(ms) * time.Millisecond
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tr.TLSClientConfig, err = tlsConfig(env("CERTIFICATE"), env("CLIENT_CERTIFICATE"), env("CLIENT_KEY")); err != nil {
		return nil, err
	}
	c.http = &http.Client{Transport: tr}
	return c, nil
}

// endpointURL is where sig goes: the endpoint given, with the signal's
// path when it has none; else OTEL_EXPORTER_OTLP_{SIGNAL}_ENDPOINT as it
// is; else OTEL_EXPORTER_OTLP_ENDPOINT with the signal's path added; else
// localhost:4318.
func endpointURL(given string, sig signal, getenv func(string) string) (string, error) {
	if given != "" {
		u, err := ParseEndpoint(given)
		if err != nil {
			return "", err
		}
		if sig == metrics {
			u = metricsURL(u)
		}
		return u, nil
	}
	name := "OTEL_EXPORTER_OTLP_" + sig.env + "_ENDPOINT"
	v := strings.TrimSpace(getenv(name))
	join := false
	if v == "" {
		name, v, join = "OTEL_EXPORTER_OTLP_ENDPOINT", strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")), true
	}
	if v == "" {
		return "http://localhost:4318" + sig.path, nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s %q: want an http:// or https:// URL such as http://localhost:4318", name, redactURL(v))
	}
	if join {
		u.Path = path.Join("/", u.Path, sig.path)
	}
	return u.String(), nil
}

// redactURL keeps a URL's credentials out of an error.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		u.User = url.User("redacted")
		s = u.String()
	}
	return s
}

// parseHeaders reads the W3C-baggage-like list of OTEL_EXPORTER_OTLP_HEADERS
// ("k1=v1,k2=v2", each part percent-encoded), skipping malformed entries
// as the SDK does.
func parseHeaders(s string) map[string]string {
	h := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		k, err1 := url.PathUnescape(strings.TrimSpace(k))
		v, err2 := url.PathUnescape(strings.TrimSpace(v))
		if err1 != nil || err2 != nil || k == "" {
			continue
		}
		h[k] = v
	}
	return h
}

// tlsConfig trusts the CA certificates of the PEM file ca and presents the
// client certificate of cert and key, when they are given; nil when none is.
func tlsConfig(ca, cert, key string) (*tls.Config, error) {
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("reading OTEL_EXPORTER_OTLP_CERTIFICATE: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("reading OTEL_EXPORTER_OTLP_CERTIFICATE %s: no PEM certificate in it", ca)
		}
	}
	if cert != "" || key != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("reading OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and _CLIENT_KEY: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// Backoff between tries the collector did not say when to make again, as
// the SDK's exporters wait: from 250ms, doubling, at most 5s.
const (
	firstWait = 250 * time.Millisecond
	maxWait   = 5 * time.Second
)

// post sends body, an encoded request, trying again while the collector
// answers it is busy or unavailable (429, 502, 503, 504), after the wait
// its Retry-After asks for or a backoff, until ctx is done. A request that
// could not be made (a refused connection) is not tried again here.
func (c *client) post(ctx context.Context, body []byte) error {
	if c.gzip {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(body); err != nil {
			return fmt.Errorf("compressing an OTLP request: %w", err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("compressing an OTLP request: %w", err)
		}
		body = b.Bytes()
	}
	wait := firstWait
	for {
		again, after, err := c.try(ctx, body)
		if err == nil || !again {
			return err
		}
		d := after
		if d < 0 {
			d = wait/2 + rand.N(wait/2+1) // jittered, never below half the step
			wait = min(2*wait, maxWait)
		}
		if serr := retry.Sleep(ctx, d); serr != nil {
			return fmt.Errorf("%w (gave up waiting to try again: %w)", err, serr)
		}
	}
}

// try makes one request. again says whether the answer is worth another
// try, and after how long the collector asked for (-1: it did not say).
func (c *client) try(ctx context.Context, body []byte) (again bool, after time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return false, 0, fmt.Errorf("making an OTLP request: %w", err)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, 0, fmt.Errorf("sending to the OTLP collector: %w", err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return false, 0, nil
	}
	err = fmt.Errorf("the OTLP collector at %s answered %s: %q", redactURL(c.url), resp.Status, retry.Short(strings.TrimSpace(string(msg)), 200))
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if d, ok := retry.RetryAfterSet(resp.Header, time.Now()); ok {
			return true, d, err
		}
		return true, -1, err
	}
	return false, 0, err
}
