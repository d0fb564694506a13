package target

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// The OAuth flows a target may name.
const (
	// FlowClientCredentials is OAuth's client credentials grant: a
	// confidential client (a client ID and secret) gets a token with no
	// person involved, as CI needs.
	FlowClientCredentials = "client_credentials"
	// FlowAuthorizationCode is OAuth's authorization code grant with PKCE:
	// a person at a browser consents, and the browser is redirected to a
	// loopback address mcpeval listens on.
	FlowAuthorizationCode = "authorization_code"
	// FlowCrossApp is cross-app access (Enterprise Managed
	// Authorization): the person's ID token from the enterprise identity
	// provider is exchanged there for an identity assertion grant (RFC
	// 8693), which the MCP server's authorization server takes for a
	// token (the JWT bearer grant, RFC 7523). No browser is involved.
	FlowCrossApp = "cross_app_access"
)

// OAuth says how mcpeval authorizes itself to a streamable HTTP target
// that answers 401 with OAuth protected resource metadata. The go-sdk's
// OAuth handlers discover the authorization server, register (dynamically
// when no client ID is given), run the flow and refresh tokens; mcpeval
// caches each server's token in TokenDir, so a run after a login, or the
// second run in CI, asks the authorization server for nothing.
type OAuth struct {
	// Flow is FlowClientCredentials, FlowAuthorizationCode or
	// FlowCrossApp (default: cross-app access when IdPIssuer is set, else
	// client credentials when ClientSecret or PrivateKeyFile is set, else
	// authorization code).
	Flow string `yaml:"flow,omitempty"`
	// ClientID is the client registered with the authorization server.
	// The authorization code flow may leave it out: mcpeval then registers
	// itself dynamically (RFC 7591) when the server allows it.
	ClientID string `yaml:"client_id,omitempty"`
	// ClientSecret is the client's secret, normally ${VAR}, expanded when
	// connecting. It is a secret: never recorded, and scrubbed from what a
	// run writes.
	ClientSecret string `yaml:"client_secret,omitempty"`
	// ClientMetadataURL is the HTTPS URL of the client's metadata document
	// (a client ID metadata document): when the authorization server
	// advertises client_id_metadata_document_supported, the authorization
	// code flow uses the URL as its client ID and registers nothing; else
	// it falls back to ClientID or dynamic registration. The document must
	// list http://127.0.0.1/callback among its redirect_uris (any port is
	// then accepted, RFC 8252).
	ClientMetadataURL string `yaml:"client_metadata_url,omitempty"`
	// PrivateKeyFile is the file of a PEM private key (PKCS #8, or an RSA
	// or EC key in its own format) the client authenticates with instead
	// of a secret (private_key_jwt, RFC 7523): each token request carries
	// a short-lived JWT it signs. It may name ${VAR}s, expanded when
	// connecting. The key is read when a token is needed and never
	// recorded.
	PrivateKeyFile string `yaml:"private_key_file,omitempty"`
	// IdPIssuer is the issuer URL of the enterprise identity provider
	// the cross-app access flow exchanges the ID token at; its token
	// endpoint is found in its metadata.
	IdPIssuer string `yaml:"idp_issuer,omitempty"`
	// IdPClientID is the client registered with the identity provider
	// for the token exchange; IdPClientSecret its secret, if it has one,
	// normally ${VAR} and kept like ClientSecret.
	IdPClientID     string `yaml:"idp_client_id,omitempty"`
	IdPClientSecret string `yaml:"idp_client_secret,omitempty"`
	// IDTokenEnv names the environment variable that holds the person's
	// ID token for cross-app access; IDTokenFile is the file that holds
	// it instead (it may name ${VAR}s). Exactly one is set. The token is
	// read when a token is needed, never cached, logged or recorded.
	IDTokenEnv  string `yaml:"id_token_env,omitempty"`
	IDTokenFile string `yaml:"id_token_file,omitempty"`
	// Scopes replace the scopes the server's metadata asks for.
	Scopes []string `yaml:"scopes,omitempty"`
	// Browser opens the authorization URL for a person; it is what lets
	// the authorization code flow run. Without it a target whose flow
	// needs a person connects only with a token already cached (by
	// mcpeval login). OpenBrowser is the usual choice.
	Browser func(ctx context.Context, url string) error `yaml:"-"`
	// Reauthorize runs the flow at the first request even when a token is
	// cached, asking for the cached token's scopes and Scopes together:
	// what mcpeval login does.
	Reauthorize bool `yaml:"-"`
	// TokenDir is where tokens are cached, one file per server, readable
	// by the user alone (default: UserConfigDir/mcpeval/tokens).
	TokenDir string `yaml:"-"`
}

// flow returns the flow o names or implies.
func (o *OAuth) flow() string {
	switch {
	case o.Flow != "":
		return o.Flow
	case o.IdPIssuer != "":
		return FlowCrossApp
	case o.ClientSecret != "" || o.PrivateKeyFile != "":
		return FlowClientCredentials
	}
	return FlowAuthorizationCode
}

func (o *OAuth) check() error {
	if o.flow() != FlowCrossApp && o.IdPIssuer+o.IdPClientID+o.IdPClientSecret+o.IDTokenEnv+o.IDTokenFile != "" {
		return fmt.Errorf("oauth: idp_issuer, idp_client_id, idp_client_secret, id_token_env and id_token_file are for the %s flow", FlowCrossApp)
	}
	switch o.flow() {
	case FlowClientCredentials:
		if o.ClientID == "" || (o.ClientSecret == "" && o.PrivateKeyFile == "") {
			return errors.New("oauth: the client_credentials flow needs client_id and client_secret (or private_key_file)")
		}
		if o.ClientSecret != "" && o.PrivateKeyFile != "" {
			return errors.New("oauth: give client_secret or private_key_file, not both")
		}
		if o.ClientMetadataURL != "" {
			return errors.New("oauth: client_metadata_url is for the authorization_code flow")
		}
	case FlowAuthorizationCode:
		if o.PrivateKeyFile != "" {
			return errors.New("oauth: private_key_file is for the client_credentials flow")
		}
		if u, err := url.Parse(o.ClientMetadataURL); o.ClientMetadataURL != "" && (err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "") {
			return fmt.Errorf("oauth: client_metadata_url %q: want the https URL of a document, with a path", o.ClientMetadataURL)
		}
	case FlowCrossApp:
		return o.checkCrossApp()
	default:
		return fmt.Errorf("oauth: flow %q: want %s, %s or %s", o.Flow, FlowClientCredentials, FlowAuthorizationCode, FlowCrossApp)
	}
	return nil
}

// TokenDir returns the directory tokens are cached in:
// os.UserConfigDir()/mcpeval/tokens.
func TokenDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the directory to cache OAuth tokens in: %w", err)
	}
	return filepath.Join(dir, "mcpeval", "tokens"), nil
}

// handlers holds one OAuth handler per server, client and cache, shared by
// every connection the process makes: the attempts of a run that connect
// anew share one token, and a person is asked to log in once.
var handlers = struct {
	sync.Mutex
	m map[string]*oauthHandler
}{m: map[string]*oauthHandler{}}

// oauthFor returns the OAuth handler of an HTTP target (nil: none).
func oauthFor(c Config) (auth.OAuthHandler, error) {
	if c.OAuth == nil {
		// A server a person logged in to (mcpeval login URL) needs no
		// oauth: mapping: its cached token is used, and refreshed.
		dir, err := TokenDir()
		if err != nil {
			return nil, nil
		}
		ct, err := loadToken(dir, c.Spec)
		var insecure *insecureCacheError
		switch {
		case errors.As(err, &insecure):
			// A login whose cache others can read: the handler says why
			// it is not used rather than the server's bare 401.
		case err != nil || ct.Flow != FlowAuthorizationCode:
			return nil, nil
		}
		c.OAuth = &OAuth{Flow: FlowAuthorizationCode}
	}
	o := *c.OAuth
	o.ClientSecret = os.Expand(o.ClientSecret, os.Getenv)
	o.IdPClientSecret = os.Expand(o.IdPClientSecret, os.Getenv)
	if o.TokenDir == "" {
		dir, err := TokenDir()
		if err != nil {
			return nil, err
		}
		o.TokenDir = dir
	}
	// A connection that may open a browser (a login) and one that may not
	// (a run) do not share a handler: a run never asks a person.
	key := strings.Join([]string{c.Spec, o.flow(), o.ClientID, o.TokenDir, hashString(o.ClientSecret), o.PrivateKeyFile, o.ClientMetadataURL, fmt.Sprint(o.Browser != nil, o.Reauthorize), strings.Join(o.Scopes, " "),
		o.IdPIssuer, o.IdPClientID, hashString(o.IdPClientSecret), o.IDTokenEnv, o.IDTokenFile}, "\x00")
	handlers.Lock()
	defer handlers.Unlock()
	h := handlers.m[key]
	if h == nil {
		h = &oauthHandler{server: c.Spec, shown: c.Shown(), o: o, client: &http.Client{Transport: baseTransport, Timeout: 30 * time.Second, CheckRedirect: checkRedirect}}
		handlers.m[key] = h
	}
	return h, nil
}

// oauthHandler is an auth.OAuthHandler that runs the go-sdk's handler for
// the target's flow and keeps the token it gets in the cache.
type oauthHandler struct {
	server, shown string
	o             OAuth
	client        *http.Client

	mu     sync.Mutex
	loaded bool
	ts     oauth2.TokenSource
	// granted are the scopes of the token in hand, or of the cached one.
	granted []string
	// unused says why the cached token was not used, when it was there.
	unused error
}

// TokenSource returns the current token's source: the cached token at
// first (refreshed when it has expired and can be), then what the last
// authorization got.
func (h *oauthHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loaded {
		h.loaded = true
		c, err := loadToken(h.o.TokenDir, h.server)
		var insecure *insecureCacheError
		switch {
		case err == nil:
			if ts := h.fromCache(c); ts != nil {
				h.granted = c.Scopes
				if !h.o.Reauthorize {
					h.ts = ts
				}
			}
		case errors.As(err, &insecure):
			h.unused = err
		}
	}
	if h.ts == nil {
		return nil, nil
	}
	return h.ts, nil
}

// fromCache returns a source for a cached token of this client and flow,
// or nil when the cache holds none that can still be used.
func (h *oauthHandler) fromCache(c *cachedToken) oauth2.TokenSource {
	if c.Flow != h.o.flow() || (h.o.ClientID != "" && c.ClientID != h.o.ClientID) {
		return nil
	}
	tok := c.token()
	if tok.RefreshToken != "" && c.TokenURL != "" {
		secret := h.o.ClientSecret
		if h.o.ClientID == "" {
			secret = c.ClientSecret // issued at dynamic registration
		}
		cfg := &oauth2.Config{ClientID: c.ClientID, ClientSecret: secret, Endpoint: oauth2.Endpoint{TokenURL: c.TokenURL}}
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.client)
		return h.saving(cfg.TokenSource(ctx, tok), *c)
	}
	if !tok.Valid() {
		return nil
	}
	return oauth2.StaticTokenSource(tok)
}

// Authorize runs the target's OAuth flow after the server refused a
// request, unless another connection already got a newer token. A 403
// insufficient_scope (step-up authorization) asks for the scopes the
// token was granted and those the challenge names together.
func (h *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ts != nil {
		if tok, err := h.ts.Token(); err == nil && "Bearer "+tok.AccessToken != req.Header.Get("Authorization") && resp.StatusCode == http.StatusUnauthorized {
			resp.Body.Close()
			return nil // refused an older token: retry with this one
		}
	}
	ch := readChallenge(resp)
	want := h.o.Scopes
	if ch.stepUp {
		want = unionScopes(want, ch.scopes)
	}
	want = unionScopes(h.granted, want)
	h.ts = nil
	var (
		inner auth.OAuthHandler
		meta  = cachedToken{Server: h.server, Flow: h.o.flow(), ClientID: h.o.ClientID, Scopes: want}
		err   error
	)
	switch {
	case h.o.flow() == FlowCrossApp:
		var ts oauth2.TokenSource
		if ts, err = h.crossApp(ctx, req, resp, ch, want, &meta); err == nil {
			inner = staticHandler{ts}
		}
	case h.o.PrivateKeyFile != "":
		var ts oauth2.TokenSource
		if ts, err = h.privateKeyJWT(ctx, req, resp, ch, want, &meta); err == nil {
			inner = staticHandler{ts}
		}
	case h.o.flow() == FlowClientCredentials:
		inner, err = extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: h.o.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: h.o.ClientSecret}},
			HTTPClient:  h.client,
		})
		if err == nil {
			// The token source keeps this context to fetch the next token
			// when this one expires: it must outlive the connect step.
			err = inner.Authorize(context.WithoutCancel(ctx), req, ch.asking(resp, want))
		}
	default:
		if h.o.Browser == nil {
			resp.Body.Close()
			if ch.stepUp && req.Header.Get("Authorization") != "" {
				return h.needsScopes(ch.scopes)
			}
			if h.unused != nil {
				return fmt.Errorf("authorizing with %s: %w", h.shown, h.unused)
			}
			return fmt.Errorf("authorizing with %s: no usable cached token, and the authorization code flow needs a person at a browser: run mcpeval login first", h.shown)
		}
		inner, err = h.authorizationCode(ctx, req, resp, &meta, ch)
	}
	if err != nil {
		return h.explain(err)
	}
	ts, err := inner.TokenSource(ctx)
	if err != nil || ts == nil {
		return fmt.Errorf("authorizing with %s: the OAuth flow ended without a token", h.shown)
	}
	saving := h.saving(ts, meta)
	if _, err := saving.Token(); err != nil {
		return h.explain(err)
	}
	h.ts, h.granted = saving, saving.scopes()
	return nil
}

// staticHandler is an auth.OAuthHandler whose token source is ready.
type staticHandler struct{ ts oauth2.TokenSource }

func (s staticHandler) TokenSource(context.Context) (oauth2.TokenSource, error) { return s.ts, nil }

func (staticHandler) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("authorized already")
}

// needsScopes says which scopes a step-up needs that the cached token
// lacks, and the login that gets a token with them.
func (h *oauthHandler) needsScopes(asked []string) error {
	var missing []string
	for _, s := range asked {
		if !slices.Contains(h.granted, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		missing = asked
	}
	login := "mcpeval login"
	for _, s := range missing {
		login += " --scope " + s
	}
	if h.o.ClientID != "" {
		login += " --suite SUITE"
	} else {
		login += " " + h.shown
	}
	return fmt.Errorf("authorizing with %s: the server asks for scope %s, which the cached token was not granted, and asking for more needs a person at a browser: run %s (the new token keeps the scopes already granted)",
		h.shown, strings.Join(missing, " "), login)
}

// challenge is what a refusal's WWW-Authenticate header asks for.
type challenge struct {
	// stepUp is set for a 403 insufficient_scope: the token is valid,
	// but lacks scopes.
	stepUp bool
	// scopes are those the challenge names.
	scopes []string
	// metadata is the protected resource metadata URL it names.
	metadata string
}

func readChallenge(resp *http.Response) challenge {
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return challenge{}
	}
	var ch challenge
	for _, c := range cs {
		if c.Scheme != "bearer" {
			continue
		}
		if s := c.Params["scope"]; s != "" && ch.scopes == nil {
			for _, sc := range strings.Fields(s) {
				if validScope(sc) {
					ch.scopes = append(ch.scopes, sc)
				}
			}
		}
		if u := c.Params["resource_metadata"]; u != "" && ch.metadata == "" {
			ch.metadata = u
		}
		if c.Params["error"] == "insufficient_scope" {
			ch.stepUp = resp.StatusCode == http.StatusForbidden
		}
	}
	return ch
}

// validScope reports whether s is a scope as RFC 6749 section 3.3 spells
// one: printable ASCII but for the double quote and the backslash.
func validScope(s string) bool {
	for _, r := range s {
		if r < 0x21 || r > 0x7e || r == '"' || r == '\\' {
			return false
		}
	}
	return s != ""
}

// asking returns resp with its challenge asking for scopes, for a go-sdk
// handler that reads the scopes to ask for from the challenge alone; resp
// itself when scopes is empty (the handler then asks for what the
// server's metadata names).
func (ch challenge) asking(resp *http.Response, scopes []string) *http.Response {
	if len(scopes) == 0 {
		return resp
	}
	r := *resp
	r.Header = resp.Header.Clone()
	v := fmt.Sprintf("Bearer scope=%q", strings.Join(scopes, " "))
	if ch.metadata != "" {
		v += fmt.Sprintf(", resource_metadata=%q", ch.metadata)
	}
	r.Header.Set("WWW-Authenticate", v)
	return &r
}

// unionScopes returns the scopes of a and b together, sorted: a scope
// list is a set (RFC 6749 §3.3), and a fixed order keeps what is asked
// for and cached the same from one run to the next, whatever order the
// authorization server granted them in.
func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// explain names the server and the step of the flow that failed.
func (h *oauthHandler) explain(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		return fmt.Errorf("authorizing with %s (OAuth %s): the authorization server's token endpoint refused the request (%s)", h.shown, h.o.flow(), refusal(re))
	}
	return fmt.Errorf("authorizing with %s (OAuth %s): %w", h.shown, h.o.flow(), err)
}

// authorizationCode runs the authorization code flow with PKCE: it
// listens on a loopback port, has the browser open the authorization URL,
// and waits for the redirect that brings the code back.
func (h *oauthHandler) authorizationCode(ctx context.Context, req *http.Request, resp *http.Response, meta *cachedToken, ch challenge) (auth.OAuthHandler, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("listening for the browser's redirect: %w", err)
	}
	defer ln.Close()
	redirect := "http://" + ln.Addr().String() + "/callback"
	results := make(chan *auth.AuthorizationResult, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		res := &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if res.Code == "" {
			fmt.Fprintln(w, "mcpeval was not authorized. You can close this tab.")
		} else {
			fmt.Fprintln(w, "mcpeval is authorized. You can close this tab.")
		}
		select {
		case results <- res:
		default:
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()

	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:         redirect,
		RequestRefreshToken: true,
		Client:              h.client,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			if err := h.o.Browser(ctx, args.URL); err != nil {
				return nil, fmt.Errorf("opening the browser: %w", err)
			}
			select {
			case res := <-results:
				if res.Code == "" {
					return nil, errors.New("the authorization server redirected back without a code (the person declined, or the request was refused)")
				}
				return res, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("waiting for the browser to come back: %w", ctx.Err())
			}
		},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			meta.ClientID, meta.TokenURL, meta.Scopes = c.ClientID, c.Endpoint.TokenURL, c.Scopes
			if h.o.ClientID == "" {
				meta.ClientSecret = c.ClientSecret // issued at registration, needed to refresh
			}
			return c.TokenSource(ctx, tok), nil
		},
	}
	// Ask for the configured scopes (else those discovered), the ones a
	// step-up challenge names, and those the token in hand was granted.
	configured, granted := slices.Clone(h.o.Scopes), slices.Clone(h.granted)
	cfg.ScopeFilter = func(discovered []string) []string {
		want := discovered
		if len(configured) > 0 {
			want = configured
			if ch.stepUp {
				want = unionScopes(want, ch.scopes)
			}
		}
		return unionScopes(granted, want)
	}
	if h.o.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.o.ClientMetadataURL}
	}
	if h.o.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.o.ClientID}
		if h.o.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.o.ClientSecret}
		}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "mcpeval",
			RedirectURIs:            []string{redirect},
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
		}}
	}
	inner, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if err := inner.Authorize(ctx, req, resp); err != nil {
		return nil, err
	}
	return inner, nil
}

// saving wraps ts so that every new token it returns is written to the
// cache, with meta saying how to refresh it.
func (h *oauthHandler) saving(ts oauth2.TokenSource, meta cachedToken) *savingSource {
	return &savingSource{base: ts, dir: h.o.TokenDir, meta: meta}
}

type savingSource struct {
	base oauth2.TokenSource
	dir  string

	mu   sync.Mutex
	meta cachedToken
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok.AccessToken != s.meta.AccessToken {
		s.meta.setToken(tok)
		// A cache that cannot be written costs a later run one more
		// authorization; the token in hand still works.
		_ = saveToken(s.dir, &s.meta)
	}
	return tok, nil
}

// scopes returns the scopes of the last token s returned.
func (s *savingSource) scopes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.meta.Scopes)
}

// OpenBrowser opens url in the person's browser: the command $BROWSER
// names, else the system's opener (xdg-open, open, or the Windows URL
// handler). It does not wait for the browser.
func OpenBrowser(_ context.Context, url string) error {
	return openBrowser(url)
}
