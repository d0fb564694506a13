// Package authserver is an in-process OAuth 2.1 authorization server for
// tests, and a protected MCP server that trusts it: authorization server
// metadata (RFC 8414), dynamic client registration (RFC 7591), the
// authorization endpoint with a PKCE S256 check and loopback redirects
// (RFC 8252: any port), and the token endpoint for the
// authorization_code, refresh_token and client_credentials grants, with
// client secrets or private_key_jwt assertions (RFC 7523), and the JWT
// bearer grant of an identity assertion grant from an IdP, the enterprise
// identity provider of cross-app access, also here. The
// authorization endpoint consents at once, as a person clicking "allow"
// would: a test's scripted browser only has to follow its redirect.
//
// Tokens are opaque random strings the server remembers; Verify checks
// them for the resource server.
package authserver

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Options configure a Server.
type Options struct {
	// Clients are the pre-registered confidential clients: client ID to
	// secret. They may use every grant, redirecting to any loopback URL.
	Clients map[string]string
	// KeyClients are the pre-registered clients that authenticate with
	// private_key_jwt (RFC 7523): client ID to public key. The token
	// endpoint wants a client_assertion JWT signed by the key, with the
	// client ID as iss and sub and the issuer URL as aud.
	KeyClients map[string]crypto.PublicKey
	// Scopes are the scopes the server supports and a protected resource
	// requires (default "mcp:tools").
	Scopes []string
	// TokenTTL is how long an access token lives (default one hour).
	TokenTTL time.Duration
	// MetadataDocuments are the client ID metadata documents the server
	// can fetch, by URL: a client whose client_id is one of these URLs
	// is the public client the document describes, with no registration.
	// The server's metadata advertises client_id_metadata_document_supported
	// when there are any.
	MetadataDocuments map[string]*oauthex.ClientRegistrationMetadata
	// StepUp names, for a tool, the scopes calling it needs beyond
	// Scopes: a tools/call of it with a token lacking them is answered
	// 403 with a WWW-Authenticate challenge of error="insufficient_scope"
	// and scope= every scope the call needs (step-up authorization).
	StepUp map[string][]string
	// IdPs are the identity providers whose identity assertion grants
	// (ID-JAGs) the token endpoint takes in the JWT bearer grant (RFC
	// 7523), by issuer URL to the key they sign with: the grant must be
	// typed oauth-id-jag+jwt, for this server (aud), unexpired, and name
	// as client_id the client that authenticates.
	IdPs map[string]crypto.PublicKey
	// BasicOnly makes client_secret_basic the only way a client with a
	// secret may authenticate: the metadata names it alone, and the token
	// endpoint refuses a secret sent in the body.
	BasicOnly bool
}

// Server is a running authorization server.
type Server struct {
	// URL is the server's issuer URL (http://127.0.0.1:PORT).
	URL string

	srv  *httptest.Server
	opts Options

	mu      sync.Mutex
	clients map[string]*client
	codes   map[string]*grant
	access  map[string]*issued
	refresh map[string]*issued
	calls   map[string]int
	issued  []string
	jtis    map[string]bool
	// assertions are the client assertions the token endpoint accepted.
	assertions []string
}

type client struct {
	secret    string           // "" for a public client
	key       crypto.PublicKey // for private_key_jwt
	redirects []string
}

type grant struct {
	clientID, redirect, challenge, resource string
	scopes                                  []string
	expires                                 time.Time
}

type issued struct {
	clientID string
	// user is whom the token acts for: the person who consented, or the
	// client itself for client_credentials.
	user    string
	scopes  []string
	expires time.Time
}

// person is the user every authorization code grant acts for: the
// session a person opened stays theirs whichever client they consented to.
const person = "person"

// New starts an authorization server on a loopback port.
func New(opts Options) *Server {
	if len(opts.Scopes) == 0 {
		opts.Scopes = []string{"mcp:tools"}
	}
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = time.Hour
	}
	s := &Server{
		opts:    opts,
		clients: map[string]*client{},
		codes:   map[string]*grant{},
		access:  map[string]*issued{},
		refresh: map[string]*issued{},
		calls:   map[string]int{},
		jtis:    map[string]bool{},
	}
	for id, secret := range opts.Clients {
		s.clients[id] = &client{secret: secret}
	}
	for id, key := range opts.KeyClients {
		s.clients[id] = &client{key: key}
	}
	for u, doc := range opts.MetadataDocuments {
		s.clients[u] = &client{redirects: doc.RedirectURIs}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("POST /register", s.register)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// TokenCalls counts the token endpoint's successful answers for grant
// type grantType ("authorization_code", "refresh_token",
// "client_credentials"), or for all of them when grantType is "".
func (s *Server) TokenCalls(grantType string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if grantType != "" {
		return s.calls[grantType]
	}
	n := 0
	for _, c := range s.calls {
		n += c
	}
	return n
}

// Issued returns every access and refresh token the server has issued.
func (s *Server) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.issued)
}

// Assertions returns every private_key_jwt client assertion the token
// endpoint accepted.
func (s *Server) Assertions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.assertions)
}

// ExpireAccessTokens makes every access token issued so far expired, as
// time passing would.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.access {
		t.expires = time.Now().Add(-time.Minute)
	}
}

// Verify is an auth.TokenVerifier for a resource server that trusts s.
func (s *Server) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.access[token]
	if !ok || time.Now().After(t.expires) {
		return nil, fmt.Errorf("unknown or expired token: %w", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: t.scopes, Expiration: t.expires, UserID: t.user}, nil
}

// Protect serves server over streamable HTTP at /mcp of a new loopback
// server, behind the go-sdk's bearer-token middleware trusting s: a
// request without a valid token is answered 401 with a WWW-Authenticate
// header naming the protected resource metadata, which is served at
// /.well-known/oauth-protected-resource/mcp. The MCP endpoint's URL is
// the returned server's URL + "/mcp".
func (s *Server) Protect(server *mcp.Server) *httptest.Server {
	mux := http.NewServeMux()
	rs := httptest.NewServer(mux)
	base := rs.URL
	metaURL := base + "/.well-known/oauth-protected-resource/mcp"
	var handler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	if len(s.opts.StepUp) > 0 {
		handler = s.stepUp(metaURL, handler)
	}
	mux.Handle("/mcp", auth.RequireBearerToken(s.Verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: metaURL,
		Scopes:              s.opts.Scopes,
	})(handler))
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             base + "/mcp",
		AuthorizationServers: []string{s.URL},
		ScopesSupported:      s.opts.Scopes,
	}))
	return rs
}

// stepUp answers a tools/call of a tool in Options.StepUp 403
// insufficient_scope when the request's token lacks a scope it needs.
func (s *Server) stepUp(metaURL string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "reading the request", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		extra, ok := s.opts.StepUp[msg.Params.Name]
		if msg.Method != "tools/call" || !ok {
			next.ServeHTTP(w, r)
			return
		}
		need := append(slices.Clone(s.opts.Scopes), extra...)
		var have []string
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			have = ti.Scopes
		}
		for _, sc := range need {
			if !slices.Contains(have, sc) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, strings.Join(need, " "), metaURL))
				writeJSON(w, http.StatusForbidden, oauthError{"insufficient_scope", "the token lacks scope " + sc})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// authMethods returns the token endpoint's client authentication methods.
func (s *Server) authMethods() []string {
	if s.opts.BasicOnly {
		return []string{"client_secret_basic"}
	}
	return []string{"client_secret_basic", "client_secret_post", "private_key_jwt", "none"}
}

// supported returns every scope the server knows.
func (s *Server) supported() []string {
	all := slices.Clone(s.opts.Scopes)
	for _, extra := range s.opts.StepUp {
		for _, sc := range extra {
			if !slices.Contains(all, sc) {
				all = append(all, sc)
			}
		}
	}
	slices.Sort(all[len(s.opts.Scopes):])
	return all
}

func (s *Server) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, &oauthex.AuthServerMeta{
		Issuer:                                     s.URL,
		AuthorizationEndpoint:                      s.URL + "/authorize",
		TokenEndpoint:                              s.URL + "/token",
		RegistrationEndpoint:                       s.URL + "/register",
		ScopesSupported:                            append(s.supported(), "offline_access"),
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token", "client_credentials", jwtBearer},
		TokenEndpointAuthMethodsSupported:          s.authMethods(),
		TokenEndpointAuthSigningAlgValuesSupported: []string{"ES256", "ES384", "RS256", "EdDSA"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		ClientIDMetadataDocumentSupported:          len(s.opts.MetadataDocuments) > 0,
	})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&meta); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_client_metadata", "the body is not client metadata JSON"})
		return
	}
	if len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_redirect_uri", "redirect_uris is required"})
		return
	}
	c := &client{redirects: meta.RedirectURIs}
	if meta.TokenEndpointAuthMethod == "" {
		meta.TokenEndpointAuthMethod = "client_secret_basic"
	}
	if meta.TokenEndpointAuthMethod != "none" {
		c.secret = randomString()
	}
	id := "dcr-" + randomString()
	s.mu.Lock()
	s.clients[id] = c
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: meta,
		ClientID:                   id,
		ClientSecret:               c.secret,
		ClientIDIssuedAt:           time.Now(),
	})
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	c, ok := s.clients[q.Get("client_id")]
	s.mu.Unlock()
	redirect := q.Get("redirect_uri")
	if !ok || !c.allows(redirect) {
		// Never redirect to an address the client did not register.
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	}
	back := func(params url.Values) {
		u, _ := url.Parse(redirect)
		v := u.Query()
		for k, vs := range params {
			v[k] = vs
		}
		v.Set("state", q.Get("state"))
		u.RawQuery = v.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		back(url.Values{"error": {"unsupported_response_type"}})
		return
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		back(url.Values{"error": {"invalid_request"}, "error_description": {"PKCE with S256 is required"}})
		return
	}
	code := randomString()
	s.mu.Lock()
	s.codes[code] = &grant{clientID: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"),
		resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope")), expires: time.Now().Add(time.Minute)}
	s.mu.Unlock()
	back(url.Values{"code": {code}})
}

// allows reports whether the client registered redirect; a pre-registered
// client may use any loopback address, and a loopback address matches
// whatever its port (RFC 8252 section 7.3).
func (c *client) allows(redirect string) bool {
	u, err := url.Parse(redirect)
	if err != nil || u.Scheme != "http" {
		return false
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		return false
	}
	if c.redirects == nil {
		return true
	}
	for _, r := range c.redirects {
		ru, err := url.Parse(r)
		if err == nil && ru.Hostname() == u.Hostname() && ru.Path == u.Path {
			return true
		}
	}
	return false
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "the body is not a form"})
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic && s.opts.BasicOnly && r.PostForm.Get("client_secret") != "" {
		writeJSON(w, http.StatusUnauthorized, oauthError{"invalid_client", "client_secret_basic is the only client authentication accepted"})
		return
	}
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	} else {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	}
	assertion := r.PostForm.Get("client_assertion")
	if assertion != "" {
		id = assertedClient(assertion)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if ok && c.key != nil {
		ok = r.PostForm.Get("client_assertion_type") == assertionType && s.verifyAssertion(c.key, id, assertion)
	} else if ok {
		ok = assertion == "" && subtle.ConstantTimeCompare([]byte(c.secret), []byte(secret)) == 1
	}
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		writeJSON(w, http.StatusUnauthorized, oauthError{"invalid_client", "client authentication failed"})
		return
	}
	grantType := r.PostForm.Get("grant_type")
	var scopes []string
	user := person
	withRefresh := false
	switch grantType {
	case "authorization_code":
		g, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code")) // a code is used once
		if !ok || g.clientID != id || time.Now().After(g.expires) || g.redirect != r.PostForm.Get("redirect_uri") {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "unknown, used or expired code"})
			return
		}
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "code_verifier does not match the code_challenge"})
			return
		}
		scopes, withRefresh = g.scopes, true
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		t, ok := s.refresh[rt]
		if !ok || t.clientID != id {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "unknown refresh token"})
			return
		}
		delete(s.refresh, rt) // rotated, as OAuth 2.1 asks of public clients
		scopes, withRefresh = t.scopes, true
	case "client_credentials":
		if c.secret == "" && c.key == nil {
			writeJSON(w, http.StatusUnauthorized, oauthError{"unauthorized_client", "a public client cannot use client_credentials"})
			return
		}
		scopes = strings.Fields(r.PostForm.Get("scope"))
		if len(scopes) == 0 {
			scopes = s.opts.Scopes
		}
	case jwtBearer:
		sub, ok := s.verifyGrant(id, r.PostForm.Get("assertion"))
		if !ok {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "the assertion is no identity assertion grant of a trusted identity provider for this client"})
			return
		}
		user = sub
		scopes = strings.Fields(r.PostForm.Get("scope"))
		if len(scopes) == 0 {
			scopes = s.opts.Scopes
		}
	default:
		writeJSON(w, http.StatusBadRequest, oauthError{"unsupported_grant_type", fmt.Sprintf("grant_type %q", grantType)})
		return
	}
	s.calls[grantType]++
	at := "at-" + randomString()
	expires := time.Now().Add(s.opts.TokenTTL)
	if grantType == "client_credentials" {
		user = id
	}
	s.access[at] = &issued{clientID: id, user: user, scopes: scopes, expires: expires}
	s.issued = append(s.issued, at)
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(s.opts.TokenTTL.Seconds()), "scope": strings.Join(scopes, " ")}
	if withRefresh {
		rt := "rt-" + randomString()
		s.refresh[rt] = &issued{clientID: id, scopes: scopes}
		s.issued = append(s.issued, rt)
		resp["refresh_token"] = rt
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, resp)
}

const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertedClient returns the client a client_assertion says it is from
// (its sub), before its signature is checked.
func assertedClient(assertion string) string {
	var claims jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(assertion, &claims); err != nil {
		return ""
	}
	return claims.Subject
}

// verifyAssertion checks a private_key_jwt client assertion: signed by
// key, iss and sub the client, aud the issuer, not expired, and its jti
// not seen before.
func (s *Server) verifyAssertion(key crypto.PublicKey, id, assertion string) bool {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(assertion, &claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{"ES256", "ES384", "RS256", "EdDSA"}),
		jwt.WithIssuer(id), jwt.WithSubject(id), jwt.WithAudience(s.URL), jwt.WithExpirationRequired())
	if err != nil || claims.ID == "" || s.jtis[claims.ID] {
		return false
	}
	s.jtis[claims.ID] = true
	s.assertions = append(s.assertions, assertion)
	return true
}

type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func randomString() string { return rand.Text() }
