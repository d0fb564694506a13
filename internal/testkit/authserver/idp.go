package authserver

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// jwtBearer is the grant type that trades an assertion for a token (RFC
// 7523 section 2.1).
const jwtBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// grantType is the typ header of an identity assertion grant.
const grantType = "oauth-id-jag+jwt"

// IdP is an enterprise identity provider for cross-app access tests: it
// signs ID tokens for its client, and its token endpoint exchanges one
// (RFC 8693, subject_token_type id_token) for an identity assertion grant
// (requested_token_type id-jag) for the authorization server the request
// names as audience, naming ResourceClient as the client it is for.
type IdP struct {
	// URL is the identity provider's issuer URL.
	URL string

	srv                    *httptest.Server
	key                    *ecdsa.PrivateKey
	client, resourceClient string

	mu        sync.Mutex
	exchanges int
	subjects  []string
}

// NewIdP starts an identity provider whose client (that asks for ID
// tokens and exchanges them) is client, a public client, and whose grants
// are for resourceClient, the client at the MCP server's authorization
// server.
func NewIdP(client, resourceClient string) *IdP {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	p := &IdP{key: key, client: client, resourceClient: resourceClient}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.metadata)
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", p.metadata)
	mux.HandleFunc("POST /token", p.token)
	p.srv = httptest.NewServer(mux)
	p.URL = p.srv.URL
	return p
}

// Close stops the identity provider.
func (p *IdP) Close() { p.srv.Close() }

// PublicKey is the key the identity provider's grants verify with, for
// Options.IdPs.
func (p *IdP) PublicKey() crypto.PublicKey { return &p.key.PublicKey }

// IDToken returns an ID token for person sub, issued to the client,
// valid for ttl.
func (p *IdP) IDToken(sub string, ttl time.Duration) string {
	now := time.Now()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.RegisteredClaims{
		Issuer: p.URL, Subject: sub, Audience: jwt.ClaimStrings{p.client},
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}).SignedString(p.key)
	if err != nil {
		panic(err)
	}
	return tok
}

// Exchanges counts the ID tokens the token endpoint exchanged.
func (p *IdP) Exchanges() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exchanges
}

// Subjects returns the subject tokens the token endpoint was sent,
// valid or not.
func (p *IdP) Subjects() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.subjects)
}

func (p *IdP) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, &oauthex.AuthServerMeta{
		Issuer:                            p.URL,
		AuthorizationEndpoint:             p.URL + "/authorize",
		TokenEndpoint:                     p.URL + "/token",
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{oauthex.GrantTypeTokenExchange},
		TokenEndpointAuthMethodsSupported: []string{"none"},
	})
}

func (p *IdP) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "the body is not a form"})
		return
	}
	f := r.PostForm
	p.mu.Lock()
	defer p.mu.Unlock()
	p.subjects = append(p.subjects, f.Get("subject_token"))
	switch {
	case f.Get("grant_type") != oauthex.GrantTypeTokenExchange:
		writeJSON(w, http.StatusBadRequest, oauthError{"unsupported_grant_type", "only token exchange"})
		return
	case f.Get("client_id") != p.client:
		writeJSON(w, http.StatusUnauthorized, oauthError{"invalid_client", "unknown client"})
		return
	case f.Get("subject_token_type") != oauthex.TokenTypeIDToken || f.Get("requested_token_type") != oauthex.TokenTypeIDJAG ||
		f.Get("audience") == "" || f.Get("resource") == "":
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "want an id_token subject, an id-jag requested, an audience and a resource"})
		return
	}
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(f.Get("subject_token"), &claims, func(*jwt.Token) (any, error) { return &p.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer(p.URL), jwt.WithAudience(p.client), jwt.WithExpirationRequired())
	if err != nil {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "the ID token is not valid"})
		return
	}
	now := time.Now()
	jag := jwt.NewWithClaims(jwt.SigningMethodES256, jagClaims{
		RegisteredClaims: jwt.RegisteredClaims{Issuer: p.URL, Subject: claims.Subject, Audience: jwt.ClaimStrings{f.Get("audience")},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: randomString()},
		ClientID: p.resourceClient, Resource: f.Get("resource"),
	})
	jag.Header["typ"] = grantType
	signed, err := jag.SignedString(p.key)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, oauthError{"server_error", "signing the grant"})
		return
	}
	p.exchanges++
	writeJSON(w, http.StatusOK, map[string]any{"access_token": signed, "issued_token_type": oauthex.TokenTypeIDJAG, "token_type": "N_A", "expires_in": 300})
}

// jagClaims are the claims of an identity assertion grant.
type jagClaims struct {
	jwt.RegisteredClaims
	ClientID string `json:"client_id"`
	Resource string `json:"resource"`
}

// verifyGrant checks an identity assertion grant presented by client:
// typed as one, signed by a trusted identity provider, for this server,
// unexpired, for client. It returns the person it acts for.
func (s *Server) verifyGrant(client, assertion string) (string, bool) {
	var claims jagClaims
	tok, err := jwt.ParseWithClaims(assertion, &claims, func(t *jwt.Token) (any, error) {
		iss, _ := t.Claims.GetIssuer()
		key, ok := s.opts.IdPs[iss]
		if !ok {
			return nil, jwt.ErrTokenUnverifiable
		}
		return key, nil
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(s.URL), jwt.WithExpirationRequired())
	if err != nil || tok.Header["typ"] != grantType || claims.ClientID != client || claims.Subject == "" {
		return "", false
	}
	return claims.Subject, true
}
