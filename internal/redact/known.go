package redact

import (
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// MinKnown is the shortest value Known accepts: shorter values (a port, a
// flag such as "true") would redact ordinary words and figures.
const MinKnown = 8

// Known is a registry of the secret values mcpeval itself holds: provider
// keys, the values of a target's headers and environment after ${VAR}
// expansion, every ${VAR} expansion. Scrub replaces each, by value and
// whatever its shape, with "[redacted:secret]". The zero value is empty
// and ready to use; it is safe for concurrent use.
type Known struct {
	mu   sync.Mutex
	vals map[string]bool
	re   *regexp.Regexp // nil when stale or empty
}

// Add registers a secret value. Values shorter than MinKnown, once
// surrounding space is trimmed, are ignored.
func (k *Known) Add(v string) {
	v = strings.TrimSpace(v)
	if len(v) < MinKnown {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.vals == nil {
		k.vals = map[string]bool{}
	}
	if !k.vals[v] {
		k.vals[v] = true
		k.re = nil
	}
}

// AddExpanded registers the value of every variable s names as ${VAR} or
// $VAR, read with getenv (nil: os.Getenv), and s itself once expanded
// when it names any: "Bearer ${TOKEN}" registers the token and the whole
// header value.
func (k *Known) AddExpanded(s string, getenv func(string) string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	named := false
	full := os.Expand(s, func(name string) string {
		named = true
		v := getenv(name)
		k.Add(v)
		if strings.Contains(v, "://") {
			k.addURLPassword(v)
		}
		return v
	})
	if named {
		k.Add(full)
	}
}

// AddEnviron registers the value of every variable of environ (as
// os.Environ returns it) whose name says it holds a secret (see
// SecretName): ANTHROPIC_API_KEY, OPENAI_API_KEY, GITHUB_TOKEN, a
// provider's or a CI's key of any shape. A value that is one plain
// lowercase word of fewer than 16 letters (CACHE_KEY=production) is taken
// for a setting, not a secret: scrubbing it would rewrite ordinary text.
// The password of a URL any variable holds (HTTPS_PROXY, DATABASE_URL) is
// registered too, whatever the variable's name.
func (k *Known) AddEnviron(environ []string) {
	for _, kv := range environ {
		name, v, ok := strings.Cut(kv, "=")
		if ok && SecretName(name) && !plainWord.MatchString(strings.TrimSpace(v)) {
			k.Add(v)
		}
		if ok && strings.Contains(v, "://") {
			k.addURLPassword(v) // a proxy's or a database's URL, whatever its name
		}
	}
}

// addURLPassword registers the password of the URL s, if it has one.
func (k *Known) addURLPassword(s string) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.User == nil {
		return
	}
	if p, ok := u.User.Password(); ok {
		k.Add(p)
	}
}

var plainWord = lazyregexp.New(`^[a-z]{1,15}$`)

// secretWords are the parts of an environment variable's name (split at
// underscores) that say its value is a secret.
var secretWords = map[string]bool{
	"KEY": true, "APIKEY": true, "TOKEN": true, "SECRET": true, "PASSWORD": true,
	"PASSWD": true, "PASSPHRASE": true, "CREDENTIAL": true, "CREDENTIALS": true,
	"AUTH": true, "PAT": true, "COOKIE": true,
}

// SecretName reports whether an environment variable's name says its
// value is a secret: one of its underscore-separated parts is KEY, TOKEN,
// SECRET, PASSWORD, AUTH, CREDENTIALS and the like (ANTHROPIC_API_KEY,
// GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD).
func SecretName(name string) bool {
	for _, part := range strings.Split(strings.ToUpper(name), "_") {
		if secretWords[part] {
			return true
		}
	}
	return false
}

// FromEnviron returns a registry of the secret values in environ (see
// AddEnviron); nil environ means os.Environ().
func FromEnviron(environ []string) *Known {
	if environ == nil {
		environ = os.Environ()
	}
	k := &Known{}
	k.AddEnviron(environ)
	return k
}

// Len is how many values are registered.
func (k *Known) Len() int {
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.vals)
}

// Values returns the registered values, longest first; a caller that
// keeps its own list of secrets (a Redactor) takes them over this way.
func (k *Known) Values() []string {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.sorted()
}

func (k *Known) sorted() []string {
	vals := make([]string, 0, len(k.vals))
	for v := range k.vals {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool {
		if len(vals[i]) != len(vals[j]) {
			return len(vals[i]) > len(vals[j])
		}
		return vals[i] < vals[j]
	})
	return vals
}

// regexp returns the pattern matching every value, longest first, or nil.
func (k *Known) regexp() *regexp.Regexp {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.re == nil && len(k.vals) > 0 {
		vals := k.sorted()
		for i, v := range vals {
			vals[i] = regexp.QuoteMeta(v)
		}
		k.re = regexp.MustCompile(strings.Join(vals, "|"))
	}
	return k.re
}

// Scrub returns s with every registered value replaced by
// "[redacted:secret]".
func (k *Known) Scrub(s string) string {
	if k == nil {
		return s
	}
	re := k.regexp()
	if re == nil {
		return s
	}
	return re.ReplaceAllLiteralString(s, Label("secret"))
}

// Error returns err with its text scrubbed (nil stays nil); the result
// still unwraps to err, so errors.Is and errors.As see through it.
func (k *Known) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := k.Scrub(Secrets(err.Error()))
	if msg == err.Error() {
		return err
	}
	return &scrubbed{msg: msg, err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// Find reports how many times a registered value appears in data, which
// may be text, HTML or JSON: it is scanned as it is, with HTML character
// references decoded, and with JSON string escapes decoded. A value is
// never quoted back.
func (k *Known) Find(data []byte) int {
	if k == nil {
		return 0
	}
	re := k.regexp()
	if re == nil {
		return 0
	}
	n := 0
	for _, text := range variants(string(data)) {
		n += len(re.FindAllStringIndex(text, -1))
	}
	return n
}

// flagName matches a command-line flag whose name means a secret
// (--password, --api-key, -token, --db_pass), with its =VALUE if any.
var flagName = lazyregexp.New(`(?i)^--?(?:[a-z0-9]+[-_.])*(?:password|passwd|pwd|pw|pass|passphrase|token|secret|key|apikey|auth|credential|credentials|creds|session|cookie|cookies)(=.*)?$`)

// envArg matches NAME=VALUE, as a container's -e or env(1) takes it.
var envArg = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_]*)=(.+)$`)

// credentialParam matches a URL query parameter that carries a credential.
var credentialParam = lazyregexp.New(`(?i)^(?:access_token|id_token|refresh_token|token|api[_-]?key|apikey|key|secret|client_secret|password|passwd|pwd|sig|signature|auth|code|session|x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential)$`)

// AddArgs registers the credentials a command line carries: the value of
// every flag whose name means a secret, in either form (--password VALUE,
// --password=VALUE), the value of every NAME=VALUE whose name says it is a
// secret (docker's -e API_TOKEN=VALUE), and the password and credential parameters (token=,
// key=, sig=...) of every URL among the arguments.
func (k *Known) AddArgs(args []string) {
	for i, a := range args {
		if m := flagName.FindStringSubmatch(a); m != nil {
			switch {
			case m[1] != "":
				k.Add(m[1][1:])
			case i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
				k.Add(args[i+1])
			}
		}
		if m := envArg.FindStringSubmatch(a); m != nil && SecretName(m[1]) {
			k.Add(m[2]) // -e API_TOKEN=VALUE
		}
		if strings.Contains(a, "://") {
			k.addURL(a)
		}
	}
}

func (k *Known) addURL(s string) {
	u, err := url.Parse(s)
	if err != nil {
		return
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			k.Add(p)
		}
	}
	for name, vs := range u.Query() {
		if credentialParam.MatchString(name) {
			for _, v := range vs {
				k.Add(v)
			}
		}
	}
}

// FindEnviron returns the names of the variables of environ (as
// os.Environ returns it) whose name says they hold a secret and whose
// value (of at least MinKnown bytes) appears in data, sorted. It scans
// data as Known.Find does, and never returns a value.
func FindEnviron(data []byte, environ []string) []string {
	var names []string
	for _, kv := range environ {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || !SecretName(name) || plainWord.MatchString(strings.TrimSpace(v)) {
			continue
		}
		k := &Known{}
		k.Add(v)
		if k.Find(data) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
