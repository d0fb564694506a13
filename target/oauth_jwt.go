package target

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// assertionType is the client_assertion_type of a JWT client assertion
// (RFC 7523 section 2.2).
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// privateKeyJWT runs the client credentials grant authenticating with a
// JWT signed by the configured private key (private_key_jwt): it
// discovers the token endpoint as the go-sdk's handlers do, and returns a
// source that signs a new assertion for every token it fetches.
func (h *oauthHandler) privateKeyJWT(ctx context.Context, req *http.Request, resp *http.Response, ch challenge, want []string, meta *cachedToken) (oauth2.TokenSource, error) {
	resp.Body.Close()
	prm, asm, err := h.discover(ctx, req.URL.String(), ch)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(asm.TokenEndpointAuthMethodsSupported, "private_key_jwt") && len(asm.TokenEndpointAuthMethodsSupported) > 0 {
		return nil, fmt.Errorf("the authorization server %s does not accept private_key_jwt (it names %s)", asm.Issuer, strings.Join(asm.TokenEndpointAuthMethodsSupported, ", "))
	}
	scopes := want
	if len(scopes) == 0 {
		scopes = ch.scopes
	}
	if len(scopes) == 0 {
		scopes = prm.ScopesSupported
	}
	meta.TokenURL, meta.Scopes = asm.TokenEndpoint, scopes
	a := &assertingSource{clientID: h.o.ClientID, keyFile: h.o.PrivateKeyFile, audience: asm.Issuer,
		algs: asm.TokenEndpointAuthSigningAlgValuesSupported, tokenURL: asm.TokenEndpoint, scopes: scopes, client: h.client}
	return oauth2.ReuseTokenSource(nil, a), nil
}

// discover finds the protected resource metadata of endpoint (where the
// challenge says, else at the well-known addresses) and the metadata of
// the first authorization server it names.
func (h *oauthHandler) discover(ctx context.Context, endpoint string, ch challenge) (*oauthex.ProtectedResourceMetadata, *oauthex.AuthServerMeta, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing the server's URL: %w", err)
	}
	type try struct{ metadata, resource string }
	var tries []try
	if ch.metadata != "" {
		tries = append(tries, try{ch.metadata, endpoint})
	}
	m := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/oauth-protected-resource/" + strings.TrimLeft(u.Path, "/")}
	tries = append(tries, try{m.String(), endpoint})
	m.Path = "/.well-known/oauth-protected-resource"
	tries = append(tries, try{m.String(), (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()})
	var prm *oauthex.ProtectedResourceMetadata
	for _, t := range tries {
		if p, err := oauthex.GetProtectedResourceMetadata(ctx, t.metadata, t.resource, h.client); err == nil && p != nil {
			prm = p
			break
		}
	}
	if prm == nil {
		// As the 2025-03-26 specification has it: the server's root is
		// its authorization server.
		prm = &oauthex.ProtectedResourceMetadata{Resource: endpoint, AuthorizationServers: []string{(&url.URL{Scheme: u.Scheme, Host: u.Host}).String()}}
	}
	if len(prm.AuthorizationServers) == 0 {
		return nil, nil, errors.New("the protected resource metadata names no authorization server")
	}
	issuer := prm.AuthorizationServers[0]
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, h.client)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the authorization server's metadata: %w", err)
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: issuer, TokenEndpoint: strings.TrimSuffix(issuer, "/") + "/token"}
	}
	return prm, asm, nil
}

// assertingSource fetches client credentials tokens, each request
// authenticated by a new JWT assertion: issued by and about the client,
// for the authorization server (its issuer as the audience), valid for
// five minutes.
type assertingSource struct {
	clientID, keyFile, audience, tokenURL string
	algs, scopes                          []string
	client                                *http.Client
}

func (a *assertingSource) Token() (*oauth2.Token, error) {
	key, method, err := readPrivateKey(os.Expand(a.keyFile, os.Getenv))
	if err != nil {
		return nil, err
	}
	if len(a.algs) > 0 && !slices.Contains(a.algs, method.Alg()) {
		return nil, fmt.Errorf("the authorization server accepts assertions signed with %s, not %s (the key's algorithm)", strings.Join(a.algs, ", "), method.Alg())
	}
	now := time.Now()
	assertion, err := jwt.NewWithClaims(method, jwt.RegisteredClaims{
		Issuer:    a.clientID,
		Subject:   a.clientID,
		Audience:  jwt.ClaimStrings{a.audience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(5 * time.Minute)),
		ID:        rand.Text(),
	}).SignedString(key)
	if err != nil {
		return nil, fmt.Errorf("signing the client assertion: %w", err)
	}
	cfg := &clientcredentials.Config{
		ClientID:       a.clientID,
		TokenURL:       a.tokenURL,
		Scopes:         a.scopes,
		AuthStyle:      oauth2.AuthStyleInParams,
		EndpointParams: url.Values{"client_assertion_type": {assertionType}, "client_assertion": {assertion}},
	}
	return cfg.Token(context.WithValue(context.Background(), oauth2.HTTPClient, a.client))
}

// readPrivateKey reads a PEM private key and the JWT signing method its
// type implies: ES256, ES384 or ES512 for an EC key by its curve, RS256
// for RSA, EdDSA for Ed25519. Errors name the file, never its content.
func readPrivateKey(file string) (crypto.Signer, jwt.SigningMethod, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the private key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, nil, fmt.Errorf("reading the private key %s: no PEM block", file)
	}
	var key any
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading the private key %s: not a PKCS #8, RSA or EC private key", file)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return k, jwt.SigningMethodES256, nil
		case elliptic.P384():
			return k, jwt.SigningMethodES384, nil
		case elliptic.P521():
			return k, jwt.SigningMethodES512, nil
		}
	case *rsa.PrivateKey:
		return k, jwt.SigningMethodRS256, nil
	case ed25519.PrivateKey:
		return k, jwt.SigningMethodEdDSA, nil
	}
	return nil, nil, fmt.Errorf("reading the private key %s: a %T cannot sign a client assertion", file, key)
}
