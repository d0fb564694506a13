package target_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/authserver"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// protected starts an authorization server and an MCP server with one tool
// behind it, and returns them with the MCP endpoint's URL.
func protected(t *testing.T, opts authserver.Options) (*authserver.Server, string) {
	t.Helper()
	target.ForgetOAuthHandlers()
	t.Cleanup(target.ForgetOAuthHandlers)
	as := authserver.New(opts)
	t.Cleanup(as.Close)
	server := mcp.NewServer(&mcp.Implementation{Name: "vault", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "open_vault", Description: "Opens the vault."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "open"}}}, nil, nil
		})
	rs := as.Protect(server)
	t.Cleanup(rs.Close)
	return as, rs.URL + "/mcp"
}

// dialTools connects with cfg and lists the tools, as a run's start does.
func dialTools(t *testing.T, cfg target.Config) ([]*mcp.Tool, error) {
	t.Helper()
	conn, err := target.Dial(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.Tools(context.Background())
}

// dialAgain connects with cfg and lists the tools as the next mcpeval
// would: the OAuth handlers this process shares forgotten, the token cache
// on disk kept. It fails the test when it cannot.
func dialAgain(t *testing.T, cfg target.Config) {
	t.Helper()
	target.ForgetOAuthHandlers()
	if _, err := dialTools(t, cfg); err != nil {
		t.Fatal(err)
	}
}

func TestOAuthClientCredentials(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "s3cret-PLANTED"}})
	t.Setenv("MCPEVAL_TEST_CLIENT_SECRET", "s3cret-PLANTED")
	dir := filepath.Join(t.TempDir(), "tokens")
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: dir}}

	// Without OAuth the server refuses us.
	if _, err := dialTools(t, target.Config{Spec: endpoint}); err == nil {
		t.Fatal("connected to a protected server without a token")
	}
	tools, err := dialTools(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "open_vault" {
		t.Fatalf("tools: %v", tools)
	}
	if n := as.TokenCalls("client_credentials"); n != 1 {
		t.Errorf("%d client_credentials token requests, want 1", n)
	}

	// The token is cached, for the user alone.
	file := target.TokenFile(dir, endpoint)
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", st.Mode().Perm())
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("token directory mode %v, want 0700", st.Mode().Perm())
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), as.Issued()[0]) {
		t.Errorf("the cache does not hold the token issued:\n%s", b)
	}
	if strings.Contains(string(b), "PLANTED") {
		t.Errorf("the cache holds the configured client secret:\n%s", b)
	}

	// A second mcpeval reuses the cached token.
	dialAgain(t, cfg)
	if n := as.TokenCalls(""); n != 1 {
		t.Errorf("the second run asked for %d tokens in all, want 1 (the cached one reused)", n)
	}

	// A cached token the server no longer accepts is replaced.
	as.ExpireAccessTokens()
	dialAgain(t, cfg)
	if n := as.TokenCalls("client_credentials"); n != 2 {
		t.Errorf("after the server expired the token: %d client_credentials requests, want 2", n)
	}

	// A cache file others may read is not trusted.
	os.Chmod(file, 0o644)
	dialAgain(t, cfg)
	if n := as.TokenCalls("client_credentials"); n != 3 {
		t.Errorf("with a world-readable cache: %d client_credentials requests, want 3", n)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("the rewritten token file has mode %v, want 0600", st.Mode().Perm())
	}
}

func TestOAuthWrongSecret(t *testing.T) {
	_, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "right"}})
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "wrong-PLANTED", TokenDir: t.TempDir()}}
	_, err := dialTools(t, cfg)
	if err == nil {
		t.Fatal("connected with a wrong client secret")
	}
	msg := err.Error()
	for _, want := range []string{"authorizing with " + endpoint, "client_credentials", "token endpoint refused", "invalid_client"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "PLANTED") {
		t.Errorf("error %q shows the secret", msg)
	}
}

// followRedirects is a scripted person at a browser: it opens the
// authorization URL and follows the redirects back to mcpeval's loopback
// listener, consenting to everything.
func followRedirects(t *testing.T, opened *atomic.Int32) func(context.Context, string) error {
	return func(ctx context.Context, u string) error {
		opened.Add(1)
		pu, err := url.Parse(u)
		if err != nil {
			return err
		}
		if ru := pu.Query().Get("redirect_uri"); !strings.HasPrefix(ru, "http://127.0.0.1:") {
			t.Errorf("redirect_uri %q is not a loopback address", ru)
		}
		if pu.Query().Get("code_challenge_method") != "S256" {
			t.Errorf("the authorization URL asks no PKCE S256 challenge: %s", u)
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), "mcpeval is authorized") {
			t.Errorf("the browser was shown %q", b)
		}
		return nil
	}
}

func TestOAuthAuthorizationCode(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{})
	dir := t.TempDir()
	var opened atomic.Int32
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, TokenDir: dir, Browser: followRedirects(t, &opened)}}
	if _, err := dialTools(t, cfg); err != nil {
		t.Fatal(err)
	}
	if opened.Load() != 1 || as.TokenCalls("authorization_code") != 1 {
		t.Fatalf("browser opened %d times, %d code exchanges; want 1 and 1", opened.Load(), as.TokenCalls("authorization_code"))
	}
	var cached struct {
		ClientID     string `json:"client_id"`
		RefreshToken string `json:"refresh_token"`
	}
	b, _ := os.ReadFile(target.TokenFile(dir, endpoint))
	json.Unmarshal(b, &cached)
	if !strings.HasPrefix(cached.ClientID, "dcr-") || cached.RefreshToken == "" {
		t.Errorf("cache: %s; want the dynamically registered client and a refresh token", b)
	}

	// The next mcpeval, with no browser at all, uses the cached token; once
	// it has expired, it refreshes it without asking the person again.
	noBrowser := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, TokenDir: dir}}
	dialAgain(t, noBrowser)
	if n := as.TokenCalls(""); n != 1 {
		t.Errorf("the second run made %d token requests in all, want 1", n)
	}
	as.ExpireAccessTokens()
	rewriteExpiry(t, target.TokenFile(dir, endpoint))
	dialAgain(t, noBrowser)
	if n := as.TokenCalls("refresh_token"); n != 1 {
		t.Errorf("%d refreshes of the expired token, want 1", n)
	}
	if opened.Load() != 1 {
		t.Errorf("the browser was opened %d times, want once", opened.Load())
	}
}

// rewriteExpiry marks the cached token expired, as time passing would.
func rewriteExpiry(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	m["expiry"] = "2001-01-01T00:00:00Z"
	b, _ = json.Marshal(m)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestOAuthAuthorizationCodeNeedsLogin(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{})
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{TokenDir: t.TempDir()}}
	_, err := dialTools(t, cfg)
	if err == nil || !strings.Contains(err.Error(), "mcpeval login") || !strings.Contains(err.Error(), endpoint) {
		t.Fatalf("got %v, want an error naming the server and mcpeval login", err)
	}
	if as.TokenCalls("") != 0 {
		t.Error("a token was requested with nobody to consent")
	}
}

func TestOAuthPreregisteredAuthorizationCode(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"desk": "desk-secret"}})
	var opened atomic.Int32
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, ClientID: "desk", ClientSecret: "desk-secret",
		TokenDir: t.TempDir(), Browser: followRedirects(t, &opened)}}
	if _, err := dialTools(t, cfg); err != nil {
		t.Fatal(err)
	}
	if as.TokenCalls("authorization_code") != 1 || as.TokenCalls("client_credentials") != 0 {
		t.Errorf("token calls: %d authorization_code, %d client_credentials", as.TokenCalls("authorization_code"), as.TokenCalls("client_credentials"))
	}
}

func TestOAuthCheck(t *testing.T) {
	for _, tc := range []struct {
		cfg  target.Config
		want string
	}{
		{target.Config{Spec: "stdio:server", OAuth: &target.OAuth{}}, "oauth is for http(s) targets"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{Flow: "password"}}, `flow "password"`},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{Flow: target.FlowClientCredentials, ClientID: "x"}}, "needs client_id and client_secret"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientID: "x", ClientSecret: "s", PrivateKeyFile: "k.pem"}}, "client_secret or private_key_file, not both"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, PrivateKeyFile: "k.pem"}}, "private_key_file is for the client_credentials flow"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientMetadataURL: "http://app.example/client.json"}}, "client_metadata_url"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientMetadataURL: "https://app.example"}}, "client_metadata_url"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "s", ClientMetadataURL: "https://app.example/client.json"}}, "client_metadata_url is for the authorization_code flow"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "s", IDTokenEnv: "T"}}, "are for the cross_app_access flow"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{IdPIssuer: "idp.example", IdPClientID: "a", ClientID: "b", IDTokenEnv: "T"}}, "idp_issuer"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{IdPIssuer: "https://idp.example", ClientID: "b", IDTokenEnv: "T"}}, "needs idp_client_id"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{IdPIssuer: "https://idp.example", IdPClientID: "a", ClientID: "b"}}, "id_token_env or id_token_file"},
		{target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{IdPIssuer: "https://idp.example", IdPClientID: "a", ClientID: "b", IDTokenEnv: "T", IDTokenFile: "f"}}, "id_token_env or id_token_file"},
	} {
		err := tc.cfg.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.cfg.OAuth, err, tc.want)
		}
	}
	ok := target.Config{Spec: "https://example.com/mcp", OAuth: &target.OAuth{ClientID: "x", ClientSecret: "${S}"}}
	if err := ok.Check(); err != nil {
		t.Error(err)
	}
}

// TestOpenBrowserHonoursBROWSER: the command $BROWSER names is given the
// authorization URL.
func TestOpenBrowserHonoursBROWSER(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	out := filepath.Join(t.TempDir(), "opened")
	t.Setenv("BROWSER", `/bin/sh -c 'echo "$0" > `+out+`'`)
	const u = "http://127.0.0.1:1/authorize?state=x"
	if err := target.OpenBrowser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if b, err := os.ReadFile(out); err == nil && strings.TrimSpace(string(b)) == u {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("$BROWSER was not given %s", u)
}

// TestOAuthConnectionsShareOneToken: the connections a run makes at once
// (one a worker) get one token between them.
func TestOAuthConnectionsShareOneToken(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "s3cret"}})
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "s3cret", TokenDir: t.TempDir()}}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := dialTools(t, cfg)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := as.TokenCalls(""); n != 1 {
		t.Errorf("8 connections at once made %d token requests, want 1", n)
	}
}

// scopesAsked wraps a scripted browser and records the scopes each
// authorization URL asks for.
func scopesAsked(browser func(context.Context, string) error, asked *[]string) func(context.Context, string) error {
	return func(ctx context.Context, u string) error {
		if pu, err := url.Parse(u); err == nil {
			*asked = append(*asked, pu.Query().Get("scope"))
		}
		return browser(ctx, u)
	}
}

// callVault connects with cfg and calls open_vault, as a run's attempt
// does.
func callVault(t *testing.T, cfg target.Config) error {
	t.Helper()
	conn, err := target.Dial(context.Background(), cfg)
	if err != nil {
		return err
	}
	defer conn.Close()
	res, err := conn.CallTool(context.Background(), &mcp.CallToolParams{Name: "open_vault"})
	if err != nil {
		return err
	}
	if res.IsError {
		t.Fatalf("open_vault: %+v", res.Content)
	}
	return nil
}

// cachedScopes returns the scopes the token cache says were granted.
func cachedScopes(t *testing.T, dir, endpoint string) []string {
	t.Helper()
	var c struct {
		Scopes []string `json:"scopes"`
	}
	b, err := os.ReadFile(target.TokenFile(dir, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &c)
	return c.Scopes
}

// TestOAuthStepUpClientCredentials: a call the token's scopes do not cover
// is answered 403 insufficient_scope; mcpeval gets a token with the cached
// scopes and the ones asked for, caches it, and the call succeeds.
func TestOAuthStepUpClientCredentials(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"ci": "s3cret"}, StepUp: map[string][]string{"open_vault": {"vault:open"}}})
	dir := t.TempDir()
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "ci", ClientSecret: "s3cret", TokenDir: dir}}
	if err := callVault(t, cfg); err != nil {
		t.Fatal(err)
	}
	if n := as.TokenCalls("client_credentials"); n != 2 {
		t.Errorf("%d client_credentials requests, want 2 (the first token, then the stepped-up one)", n)
	}
	if got := strings.Join(cachedScopes(t, dir, endpoint), " "); got != "mcp:tools vault:open" {
		t.Errorf("cached scopes %q, want the union %q", got, "mcp:tools vault:open")
	}
	// The next mcpeval reuses the stepped-up token.
	target.ForgetOAuthHandlers()
	if err := callVault(t, cfg); err != nil {
		t.Fatal(err)
	}
	if n := as.TokenCalls(""); n != 2 {
		t.Errorf("the second run made %d token requests in all, want 2 (none new)", n)
	}
}

// TestOAuthStepUpAuthorizationCode: a run cannot ask a person for more
// scope, so it says which scopes to add and how; a login asks for the
// cached scopes and the new ones together; a connection that may open a
// browser steps up by itself.
func TestOAuthStepUpAuthorizationCode(t *testing.T) {
	as, endpoint := protected(t, authserver.Options{StepUp: map[string][]string{"open_vault": {"vault:open"}}})
	dir := t.TempDir()
	var opened atomic.Int32
	var asked []string
	browser := scopesAsked(followRedirects(t, &opened), &asked)
	login := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, TokenDir: dir, Browser: browser}}
	if _, err := dialTools(t, login); err != nil {
		t.Fatal(err)
	}

	run := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, TokenDir: dir}}
	target.ForgetOAuthHandlers()
	err := callVault(t, run)
	if err == nil {
		t.Fatal("a run without a browser got more scope")
	}
	for _, want := range []string{endpoint, "vault:open", "mcpeval login --scope vault:open " + endpoint} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "no usable cached token") {
		t.Errorf("error %q says no token is cached", err)
	}

	// Logging in again with the scope named asks for the old ones too.
	relogin := target.Config{Spec: endpoint, OAuth: &target.OAuth{Flow: target.FlowAuthorizationCode, TokenDir: dir, Browser: browser,
		Scopes: []string{"vault:open"}, Reauthorize: true}}
	target.ForgetOAuthHandlers()
	if _, err := dialTools(t, relogin); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || !hasScopes(asked[1], "mcp:tools", "vault:open") {
		t.Fatalf("the logins asked for scopes %q; want the second to ask for mcp:tools and vault:open", asked)
	}
	target.ForgetOAuthHandlers()
	if err := callVault(t, run); err != nil {
		t.Fatalf("after the second login: %v", err)
	}

	// A connection that may ask a person steps up at once.
	os.Remove(target.TokenFile(dir, endpoint))
	target.ForgetOAuthHandlers()
	asked = nil
	if err := callVault(t, login); err != nil {
		t.Fatal(err, asked)
	}
	if len(asked) != 2 || !hasScopes(asked[1], "mcp:tools", "vault:open") {
		t.Errorf("asked for scopes %q; want a second authorization for mcp:tools and vault:open", asked)
	}
	if n := as.TokenCalls("authorization_code"); n != 4 {
		t.Errorf("%d code exchanges, want 4", n)
	}
}

func hasScopes(scope string, want ...string) bool {
	have := strings.Fields(scope)
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// writeKey writes a new P-256 private key as PKCS#8 PEM to a file of the
// user's alone, and returns the file and the public key.
func writeKey(t *testing.T) (string, crypto.PublicKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "client.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := os.WriteFile(file, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return file, key.Public(), der
}

// TestOAuthPrivateKeyJWT: a client that authenticates with a signed JWT
// (private_key_jwt) gets a client_credentials token; a key the server
// does not know is refused, and no key material reaches the cache or the
// error.
func TestOAuthPrivateKeyJWT(t *testing.T) {
	keyFile, pub, der := writeKey(t)
	as, endpoint := protected(t, authserver.Options{KeyClients: map[string]crypto.PublicKey{"signer": pub}})
	t.Setenv("MCPEVAL_TEST_KEY_FILE", keyFile)
	dir := t.TempDir()
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "signer", PrivateKeyFile: "${MCPEVAL_TEST_KEY_FILE}", TokenDir: dir}}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := dialTools(t, cfg); err != nil {
		t.Fatal(err)
	}
	if n := as.TokenCalls("client_credentials"); n != 1 {
		t.Errorf("%d client_credentials token requests, want 1", n)
	}
	b, _ := os.ReadFile(target.TokenFile(dir, endpoint))
	if strings.Contains(string(b), base64.StdEncoding.EncodeToString(der)[:40]) || strings.Contains(string(b), "eyJ") {
		t.Errorf("the cache holds key material or an assertion:\n%s", b)
	}
	// When the token expires, a new assertion gets a new one.
	as.ExpireAccessTokens()
	dialAgain(t, cfg)
	if n := as.TokenCalls("client_credentials"); n != 2 {
		t.Errorf("after the token expired: %d client_credentials requests, want 2", n)
	}

	otherFile, _, otherDER := writeKey(t)
	t.Setenv("MCPEVAL_TEST_KEY_FILE", otherFile)
	target.ForgetOAuthHandlers()
	_, err := dialTools(t, target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientID: "signer", PrivateKeyFile: "${MCPEVAL_TEST_KEY_FILE}", TokenDir: t.TempDir()}})
	if err == nil {
		t.Fatal("connected with a key the server does not know")
	}
	for _, want := range []string{"authorizing with " + endpoint, "client_credentials", "invalid_client"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), base64.StdEncoding.EncodeToString(otherDER)[:40]) || strings.Contains(err.Error(), "eyJ") {
		t.Errorf("error %q shows key material or an assertion", err)
	}
}

// TestOAuthClientMetadataDocument: with an authorization server that
// supports client ID metadata documents, the authorization code flow uses
// the document's URL as its client ID and registers nothing.
func TestOAuthClientMetadataDocument(t *testing.T) {
	const doc = "https://app.example/mcpeval/client.json"
	_, endpoint := protected(t, authserver.Options{MetadataDocuments: map[string]*oauthex.ClientRegistrationMetadata{
		doc: {RedirectURIs: []string{"http://127.0.0.1/callback"}, TokenEndpointAuthMethod: "none"},
	}})
	dir := t.TempDir()
	var opened atomic.Int32
	cfg := target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientMetadataURL: doc, TokenDir: dir, Browser: followRedirects(t, &opened)}}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := dialTools(t, cfg); err != nil {
		t.Fatal(err)
	}
	var cached struct {
		ClientID string `json:"client_id"`
	}
	b, _ := os.ReadFile(target.TokenFile(dir, endpoint))
	json.Unmarshal(b, &cached)
	if cached.ClientID != doc {
		t.Errorf("the token was issued to client %q, want %q (the document's URL)", cached.ClientID, doc)
	}
	dialAgain(t, target.Config{Spec: endpoint, OAuth: &target.OAuth{ClientMetadataURL: doc, TokenDir: dir}})
}

// TestOAuthChallengeScopes: a challenge's scopes are read as RFC 6749
// spells them; one with characters no scope may hold (a terminal escape)
// is dropped before it can reach an error message.
func TestOAuthChallengeScopes(t *testing.T) {
	got := target.ChallengeScopes(403, "Bearer error=\"insufficient_scope\", scope=\"mcp:tools vault:open \x1b[2Jwipe\"")
	if strings.Join(got, " ") != "mcp:tools vault:open" {
		t.Errorf("scopes %q, want mcp:tools and vault:open alone", got)
	}
}

// TestOAuthCrossAppAccess: the ID token, read from the variable or the
// file the settings name, is exchanged at the identity provider for a
// grant the MCP server's authorization server takes for a token; the
// token is cached, and the ID token appears in no cache, error or record.
func TestOAuthCrossAppAccess(t *testing.T) {
	idp := authserver.NewIdP("mcpeval-at-idp", "mcpeval")
	t.Cleanup(idp.Close)
	as, endpoint := protected(t, authserver.Options{Clients: map[string]string{"mcpeval": "s3cret-PLANTED"}, IdPs: map[string]crypto.PublicKey{idp.URL: idp.PublicKey()}, BasicOnly: true})
	idToken := idp.IDToken("alice@example.com", time.Hour)
	t.Setenv("MCPEVAL_TEST_ID_TOKEN", idToken)
	t.Setenv("MCPEVAL_TEST_CLIENT_SECRET", "s3cret-PLANTED")
	dir := t.TempDir()
	o := &target.OAuth{IdPIssuer: idp.URL, IdPClientID: "mcpeval-at-idp", IDTokenEnv: "MCPEVAL_TEST_ID_TOKEN",
		ClientID: "mcpeval", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: dir}
	cfg := target.Config{Spec: endpoint, OAuth: o}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	tools, err := dialTools(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "open_vault" {
		t.Fatalf("tools: %v", tools)
	}
	if n, m := idp.Exchanges(), as.TokenCalls("urn:ietf:params:oauth:grant-type:jwt-bearer"); n != 1 || m != 1 {
		t.Errorf("%d token exchanges and %d JWT bearer grants, want 1 and 1", n, m)
	}
	b, err := os.ReadFile(target.TokenFile(dir, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), as.Issued()[0]) {
		t.Errorf("the cache does not hold the token issued:\n%s", b)
	}
	if strings.Contains(string(b), "eyJ") || strings.Contains(string(b), "PLANTED") {
		t.Errorf("the cache holds the ID token, the grant or the client secret:\n%s", b)
	}

	// The next mcpeval reuses the cached token; once it expires, the ID
	// token is read and exchanged again.
	dialAgain(t, cfg)
	if n := idp.Exchanges(); n != 1 {
		t.Errorf("the second run exchanged the ID token %d times in all, want 1", n)
	}
	as.ExpireAccessTokens()
	dialAgain(t, cfg)
	if n := idp.Exchanges(); n != 2 {
		t.Errorf("after the token expired: %d exchanges, want 2", n)
	}

	// From a file, and redacted from what a run writes.
	file := filepath.Join(t.TempDir(), "id_token")
	os.WriteFile(file, []byte(idToken+"\n"), 0o600)
	fromFile := target.Config{Spec: endpoint, OAuth: &target.OAuth{IdPIssuer: idp.URL, IdPClientID: "mcpeval-at-idp", IDTokenFile: file,
		ClientID: "mcpeval", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: t.TempDir()}}
	target.ForgetOAuthHandlers()
	if _, err := dialTools(t, fromFile); err != nil {
		t.Fatal(err)
	}
	if got := idp.Subjects()[len(idp.Subjects())-1]; got != idToken {
		t.Errorf("the file's ID token was not the one exchanged: %q", got)
	}
	for _, c := range []target.Config{cfg, fromFile} {
		if s := c.Secrets(nil).Scrub("token " + idToken); strings.Contains(s, idToken) {
			t.Errorf("%+v: the ID token is not a secret to redact: %s", c.OAuth, s)
		}
	}

	// A token the identity provider refuses: the error names the step,
	// not the token.
	bad := idp.IDToken("alice@example.com", -time.Hour)
	t.Setenv("MCPEVAL_TEST_ID_TOKEN", bad)
	target.ForgetOAuthHandlers()
	_, err = dialTools(t, target.Config{Spec: endpoint, OAuth: &target.OAuth{IdPIssuer: idp.URL, IdPClientID: "mcpeval-at-idp", IDTokenEnv: "MCPEVAL_TEST_ID_TOKEN",
		ClientID: "mcpeval", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: t.TempDir()}})
	if err == nil {
		t.Fatal("connected with an expired ID token")
	}
	for _, want := range []string{"authorizing with " + endpoint, "cross_app_access", "identity provider", "invalid_grant"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "eyJ") {
		t.Errorf("error %q shows a token", err)
	}

	// The MCP server's authorization server refuses a wrong secret.
	t.Setenv("MCPEVAL_TEST_ID_TOKEN", idToken)
	t.Setenv("MCPEVAL_TEST_CLIENT_SECRET", "wrong-PLANTED")
	target.ForgetOAuthHandlers()
	_, err = dialTools(t, target.Config{Spec: endpoint, OAuth: &target.OAuth{IdPIssuer: idp.URL, IdPClientID: "mcpeval-at-idp", IDTokenEnv: "MCPEVAL_TEST_ID_TOKEN",
		ClientID: "mcpeval", ClientSecret: "${MCPEVAL_TEST_CLIENT_SECRET}", TokenDir: t.TempDir()}})
	if err == nil || !strings.Contains(err.Error(), "invalid_client") || strings.Contains(err.Error(), "eyJ") {
		t.Errorf("with a wrong client secret: %v", err)
	}
}
