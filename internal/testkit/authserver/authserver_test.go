package authserver

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
)

// code asks the authorization endpoint for a code as a browser would,
// and returns the redirect it answers with.
func code(t *testing.T, s *Server, cfg *oauth2.Config, opts ...oauth2.AuthCodeOption) url.Values {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(cfg.AuthCodeURL("st4te", opts...))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("authorize: %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	return loc.Query()
}

func TestPKCE(t *testing.T) {
	s := New(Options{Clients: map[string]string{"c": "sec"}})
	defer s.Close()
	cfg := &oauth2.Config{ClientID: "c", ClientSecret: "sec", RedirectURL: "http://127.0.0.1:9/callback",
		Endpoint: oauth2.Endpoint{AuthURL: s.URL + "/authorize", TokenURL: s.URL + "/token"}}
	ctx := context.Background()

	// No challenge: refused at the authorization endpoint.
	if q := code(t, s, cfg); q.Get("error") != "invalid_request" || q.Get("code") != "" || q.Get("state") != "st4te" {
		t.Errorf("without PKCE: %v", q)
	}
	// A plain challenge: refused too.
	if q := code(t, s, cfg, oauth2.SetAuthURLParam("code_challenge", "x"), oauth2.SetAuthURLParam("code_challenge_method", "plain")); q.Get("error") != "invalid_request" {
		t.Errorf("with a plain challenge: %v", q)
	}

	verifier := oauth2.GenerateVerifier()
	// The wrong verifier: refused at the token endpoint.
	q := code(t, s, cfg, oauth2.S256ChallengeOption(verifier))
	_, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(oauth2.GenerateVerifier()))
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Errorf("wrong verifier: %v", err)
	}
	// The right one: a token that the resource server accepts, once.
	q = code(t, s, cfg, oauth2.S256ChallengeOption(verifier))
	tok, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Verify(ctx, tok.AccessToken, nil); err != nil {
		t.Errorf("the token issued does not verify: %v", err)
	}
	if _, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier)); err == nil {
		t.Error("a code was exchanged twice")
	}
	if _, err := s.Verify(ctx, "at-forged", nil); err == nil {
		t.Error("a forged token verified")
	}
	// A redirect to anywhere but loopback is never followed.
	bad := *cfg
	bad.RedirectURL = "https://evil.example/callback"
	resp, err := http.Get(bad.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("non-loopback redirect: %s", resp.Status)
	}
}

func TestClientCredentials(t *testing.T) {
	s := New(Options{Clients: map[string]string{"ci": "right"}})
	defer s.Close()
	for _, tc := range []struct {
		secret string
		ok     bool
	}{{"right", true}, {"wrong", false}, {"", false}} {
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"ci"}, "client_secret": {tc.secret}}
		resp, err := http.Post(s.URL+"/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == http.StatusOK) != tc.ok {
			t.Errorf("secret %q: %s", tc.secret, resp.Status)
		}
	}
	if n := s.TokenCalls("client_credentials"); n != 1 {
		t.Errorf("%d tokens issued, want 1", n)
	}
}

// TestPrivateKeyJWT: the token endpoint takes a client assertion signed by
// the client's key, for the issuer, once; not one for another audience,
// signed by another key, or replayed.
func TestPrivateKeyJWT(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s := New(Options{KeyClients: map[string]crypto.PublicKey{"k": key.Public()}})
	defer s.Close()
	sign := func(k *ecdsa.PrivateKey, aud, jti string) string {
		a, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.RegisteredClaims{Issuer: "k", Subject: "k", Audience: jwt.ClaimStrings{aud},
			ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Minute)), ID: jti}).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	token := func(assertion string) int {
		resp, err := http.PostForm(s.URL+"/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {"k"},
			"client_assertion_type": {assertionType}, "client_assertion": {assertion}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	good := sign(key, s.URL, "one")
	for _, tc := range []struct {
		name      string
		assertion string
		want      int
	}{
		{"signed for the issuer", good, http.StatusOK},
		{"replayed", good, http.StatusUnauthorized},
		{"for another audience", sign(key, "https://elsewhere.example", "two"), http.StatusUnauthorized},
		{"signed by another key", sign(other, s.URL, "three"), http.StatusUnauthorized},
	} {
		if got := token(tc.assertion); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	// A secret does not stand in for the key.
	resp, err := http.PostForm(s.URL+"/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {"k"}, "client_secret": {""}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without an assertion: status %d, want 401", resp.StatusCode)
	}
	if len(s.Assertions()) != 1 {
		t.Errorf("%d assertions accepted, want 1", len(s.Assertions()))
	}
}
