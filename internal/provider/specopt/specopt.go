// Package specopt reads what every real provider reads the same way: the
// options of a model spec ("anthropic:claude-sonnet-4-5;max_tokens=8192"),
// taken in a fixed order and refused in the same words whichever provider
// refuses them; the provider's name; the base URL, chosen between the spec,
// the configuration and the provider's home and checked to be http(s); and
// the API key of the environment, which goes only to the environment's
// endpoint.
package specopt

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/netclient"
	"github.com/mcpeval/mcpeval/model"
)

// Provider reports a spec that names another provider than want.
func Provider(info model.Info, want string) error {
	if info.Provider != want {
		return fmt.Errorf("model spec %q: provider %q is not %s", info.Spec, info.Provider, want)
	}
	return nil
}

// Timeout returns d, or def when d is zero or less.
func Timeout(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Keys returns the names of opts in order, so that of two faulty options
// the same one is always reported.
func Keys(opts map[string]string) []string {
	return slices.Sorted(maps.Keys(opts))
}

// PositiveInt reads option k's value v as a whole number from 1 up that
// fits in bits bits (max_tokens).
func PositiveInt(k, v string, bits int) (int64, error) {
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("option %s=%q: want a positive whole number", k, v)
	}
	return n, nil
}

// Int reads option k's value v as a whole number that fits in bits bits
// (seed).
func Int(k, v string, bits int) (int64, error) {
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("option %s=%q: want a whole number", k, v)
	}
	return n, nil
}

// Float reads option k's value v as a number from lo to hi, parsed at bits
// bits of precision (32 for a float32 field).
func Float(k, v string, lo, hi float64, bits int) (float64, error) {
	f, err := strconv.ParseFloat(v, bits)
	// Written so that NaN, which is neither below lo nor above hi, is
	// refused too.
	if err != nil || !(f >= lo && f <= hi) {
		return 0, fmt.Errorf("option %s=%q: want a number from %g to %g", k, v, lo, hi)
	}
	return f, nil
}

// Float32 is Float for a float32 field the SDK leaves unset when nil.
func Float32(k, v string, lo, hi float64) (*float32, error) {
	f, err := Float(k, v, lo, hi, 32)
	if err != nil {
		return nil, err
	}
	f32 := float32(f)
	return &f32, nil
}

// Bool reads option k's value v as true or false.
func Bool(k, v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("option %s=%q: want true or false", k, v)
}

// Unknown is the refusal of option k, which provider does not accept.
func Unknown(k, provider string, allowed []string) error {
	return fmt.Errorf("option %q is not one the %s provider accepts; allowed: %s", k, provider, strings.Join(allowed, ", "))
}

// FromEnv returns the API key and base URL the environment variables keyVar
// and baseVar give, unless the spec's base_url option names another server:
// then that server, and no key. The key in the environment is for the
// environment's endpoint; it is never sent to a server named only in a
// model spec.
func FromEnv(opts map[string]string, keyVar, baseVar string) (key, base string) {
	key, base = os.Getenv(keyVar), os.Getenv(baseVar)
	if u := opts["base_url"]; u != "" && u != base {
		return "", u
	}
	return key, base
}

// BaseURL returns the base URL a provider is reached at, the first set of
// the spec's base_url option, configured and def, as a URL once it is
// checked to be http(s) with a host.
func BaseURL(spec string, opts map[string]string, configured, def string) (*url.URL, error) {
	base := configured
	if u := opts["base_url"]; u != "" {
		base = u
	}
	if base == "" {
		base = def
	}
	u, err := url.Parse(base)
	if err != nil || !isHTTP(u) {
		return nil, fmt.Errorf("model spec %q: base URL %q is not an http(s) URL", spec, base)
	}
	return u, nil
}

// Endpoint parses a provider's endpoint (a cloud's, or an override of it)
// and reports one that is not an http(s) URL with a host.
func Endpoint(spec, endpoint string) (*url.URL, error) {
	u, err := url.Parse(endpoint)
	if err != nil || !isHTTP(u) {
		return nil, fmt.Errorf("model spec %q: endpoint %q is not an http(s) URL", spec, endpoint)
	}
	return u, nil
}

func isHTTP(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Client returns the client a provider's requests go through: hc, or when
// hc is nil one over the shared pool (netclient.Transport, which keeps a
// connection per request in flight rather than the standard library's two).
// Either way redirects are followed only within the origin asked, unless hc
// has a policy of its own: the API key, in whatever header the provider
// sends it (x-api-key, api-key, x-goog-api-key), goes to the provider's
// own host only. Go's client drops only Authorization and cookies on a
// redirect to another host.
func Client(hc *http.Client) *http.Client {
	if hc == nil {
		return &http.Client{Transport: netclient.Transport(), CheckRedirect: Redirect}
	}
	if hc.CheckRedirect == nil {
		c := *hc
		c.CheckRedirect = Redirect
		return &c
	}
	return hc
}

// Redirect is the redirect policy of every provider's client: within the
// origin asked only (netclient.SameOrigin).
var Redirect = netclient.SameOrigin("the model API's key and headers", "set the provider's base URL to the new one if the API has moved")
