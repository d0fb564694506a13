package redact

import (
	"strings"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// shape is a credential recognised by its form. When secret > 0, only
// that submatch is the secret and the rest (a field name, a URL's scheme)
// is kept.
type shape struct {
	name   string
	re     *lazyregexp.Regexp
	secret int
}

// kept reports whether the match m in text is already redacted.
func (s shape) kept(text string, m []int) bool {
	if s.secret == 0 {
		return false
	}
	v := text[m[2*s.secret]:m[2*s.secret+1]]
	return strings.HasPrefix(v, "[redacted")
}

// value is what a secret that is not yet redacted looks like: anything
// up to a separator, not starting with '[' (a label).
const value = `([^\s"'<>,;&\[\]][^\s"'<>,;&]*)`

// flagValue is the value of a command-line flag: a quoted string, or a
// word that is neither a label nor the next flag.
const flagValue = `('[^'\n]*'|"[^"\n]*"|[^\s"'<>,;&\[\]-][^\s"'<>,;&]*)`

// shapes are the credentials the first pass removes wherever they appear.
var shapes = []shape{
	{"private key", lazyregexp.New(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`), 0},
	{"url credentials", lazyregexp.New(`(?i)\b[a-z][a-z0-9+.-]*://([^\s/@"'<>]+)@`), 1},
	{"url token", lazyregexp.New(`(?i)[?&;](?:access_token|id_token|refresh_token|token|api[_-]?key|apikey|key|secret|client_secret|password|passwd|pwd|sig|signature|auth|code|session|tenant|tenant_id|x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential)=` + value), 1},
	{"authorization", lazyregexp.New(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,}|\[[a-z:]*)`), 1},
	{"credential field", lazyregexp.New(`(?i)(?:^|[^/\\\w])(?:[a-z0-9]+_)*(?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|apikey|x-api-key|access[_-]?key|secret[_-]?key|access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|token|authorization|cookie|set-cookie|tenant[_-]?id)\b["']?\s*[:=]\s*["']?` + value), 1},
	{"credential flag", lazyregexp.New(`(?i)(?:^|[\s'"=])--?(?:[a-z0-9]+[-_.])*(?:password|passwd|pwd|pw|pass|passphrase|token|secret|key|apikey|auth|credential|credentials|creds|session|cookie|cookies)(?:\s*=\s*|[ \t]+)` + flagValue), 1},
	{"anthropic key", lazyregexp.New(`\bsk-ant-[A-Za-z0-9_-]{16,}`), 0},
	{"openai key", lazyregexp.New(`\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}`), 0},
	{"github token", lazyregexp.New(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`), 0},
	{"slack token", lazyregexp.New(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), 0},
	{"aws key", lazyregexp.New(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0},
	{"google key", lazyregexp.New(`\bAIza[0-9A-Za-z_-]{35}`), 0},
	{"jwt", lazyregexp.New(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0},
}

// Secrets applies the first pass alone: it removes every credential
// recognised by its shape, keeping the field name or URL around it
// ("password: [redacted:secret]"). Records and error messages go through
// it before they are written.
func Secrets(s string) string {
	for _, sh := range shapes {
		if !sh.re.MatchString(s) {
			continue
		}
		if sh.secret == 0 {
			s = sh.re.ReplaceAllString(s, Label("secret"))
			continue
		}
		s = replaceGroup(s, sh, Label("secret"))
	}
	return s
}

func replaceGroup(s string, sh shape, with string) string {
	var b strings.Builder
	last := 0
	for _, m := range sh.re.FindAllStringSubmatchIndex(s, -1) {
		lo, hi := m[2*sh.secret], m[2*sh.secret+1]
		if lo < 0 || strings.HasPrefix(s[lo:hi], "[") {
			continue
		}
		b.WriteString(s[last:lo])
		b.WriteString(with)
		last = hi
	}
	b.WriteString(s[last:])
	return b.String()
}

// urlCredentials is the shape of a URL's user info.
var urlCredentials = shapes[1]

// UserInfo removes the user info of every URL in s
// ("https://[redacted:secret]@host/"), and nothing else. Unlike Secrets it
// is safe on text a grader reads (answers, tool arguments and results): a
// URL's password is never a figure.
func UserInfo(s string) string {
	if !strings.Contains(s, "@") || !urlCredentials.re.MatchString(s) {
		return s
	}
	return replaceGroup(s, urlCredentials, Label("secret"))
}
