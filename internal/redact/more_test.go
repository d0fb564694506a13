package redact

import (
	"strings"
	"testing"
)

// TestMoreCredentialShapes plants credentials an adversarial pass found
// left in place: a presigned URL's X-Amz-Signature and security token, a
// container's -e API_TOKEN=VALUE, the values of --pw, --session and
// --cookie. Each is gone, the text around it kept.
func TestMoreCredentialShapes(t *testing.T) {
	for _, tc := range []struct{ in, secret, keep string }{
		{"GET https://b.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abcdef0123456789abcdef", "abcdef0123456789abcdef", "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature="},
		{"https://b.s3.amazonaws.com/f?x-amz-security-token=FwoGZXIvYXdzEBYaDabc123", "FwoGZXIvYXdzEBYaDabc123", "x-amz-security-token="},
		{"https://storage.googleapis.com/b/o?X-Goog-Signature=0123456789abcdef0123", "0123456789abcdef0123", "X-Goog-Signature="},
		{"docker run -e API_TOKEN=s3cr3tTok3nValue img", "s3cr3tTok3nValue", "-e API_TOKEN="},
		{"env DB_PASSWORD=hunter2hunter2 ./server", "hunter2hunter2", "DB_PASSWORD="},
		{"tool --pw hunter2hunter2 --verbose", "hunter2hunter2", "--pw"},
		{"tool --session=abcdefsess1234", "abcdefsess1234", "--session="},
		{"curl --cookie sid=abcdef123456 https://x.example", "sid=abcdef123456", "--cookie"},
	} {
		got := Secrets(tc.in)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, "[redacted:secret]") || !strings.Contains(got, tc.keep) {
			t.Errorf("Secrets(%q) = %q", tc.in, got)
		}
		if f := mustNew(t, nil).Find([]byte(tc.in)); len(f) == 0 {
			t.Errorf("Find misses the credential in %q", tc.in)
		}
	}
}

// TestPathIsNoCredential checks that a file named like a credential field
// is not taken for one ("/etc/passwd: permission denied" kept whole),
// while the field itself still is.
func TestPathIsNoCredential(t *testing.T) {
	for _, plain := range []string{
		"open /etc/passwd: permission denied",
		`open C:\secrets\password: access is denied`,
		"stat ./config/token: no such file or directory",
		"max_tokens=8192",
	} {
		if got := Secrets(plain); got != plain {
			t.Errorf("Secrets(%q) = %q: changed ordinary text", plain, got)
		}
	}
	for _, secret := range []string{"passwd: hunter2hunter2", "error: password=hunter2hunter2", "(token: hunter2hunter2)"} {
		if got := Secrets(secret); strings.Contains(got, "hunter2hunter2") {
			t.Errorf("Secrets(%q) = %q: the credential is left", secret, got)
		}
	}
}

// TestKnownURLPasswords registers the password of a URL held by any
// variable of the environment (a proxy's, a database's), and the
// credentials a container command line passes as -e NAME=VALUE or with
// --pw, --session and --cookie.
func TestKnownURLPasswords(t *testing.T) {
	k := FromEnviron([]string{"HTTPS_PROXY=http://proxyuser:Pr0xyPassw0rd@proxy.corp:3128", "DATABASE_URL=postgres://app:Db-Passw0rd-9@db:5432/x", "HOME=/home/u"})
	k.AddArgs([]string{"docker", "run", "-e", "API_TOKEN=s3cr3tTok3nValue", "--pw", "hunter2hunter2", "--session", "abcdefsess1234", "--cookie", "sid=abcdef123456", "img"})
	in := "proxy refused Pr0xyPassw0rd; db Db-Passw0rd-9; tool echoed s3cr3tTok3nValue hunter2hunter2 abcdefsess1234 sid=abcdef123456 from /home/u"
	got := k.Scrub(in)
	for _, secret := range []string{"Pr0xyPassw0rd", "Db-Passw0rd-9", "s3cr3tTok3nValue", "hunter2hunter2", "abcdefsess1234", "sid=abcdef123456"} {
		if strings.Contains(got, secret) {
			t.Errorf("Scrub left %q: %q", secret, got)
		}
	}
	if !strings.Contains(got, "/home/u") {
		t.Errorf("Scrub removed an ordinary value: %q", got)
	}
}
