package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/authserver"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// householdBehindOAuth serves the household server behind an in-process
// authorization server, and returns that server and the MCP endpoint.
func householdBehindOAuth(t *testing.T, clients map[string]string) (*authserver.Server, string) {
	t.Helper()
	as := authserver.New(authserver.Options{Clients: clients})
	t.Cleanup(as.Close)
	server, err := builtin.Server("household", false)
	if err != nil {
		t.Fatal(err)
	}
	rs := as.Protect(server)
	t.Cleanup(rs.Close)
	return as, rs.URL + "/mcp"
}

// oauthSuite writes a one-case suite whose target is endpoint, with the
// oauth mapping given.
func oauthSuite(t *testing.T, endpoint, oauth string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "suite.yaml")
	yaml := "name: vault\ntarget:\n  spec: " + endpoint + "\n  oauth: " + oauth + `
cases:
  - id: worth/now
    prompt: What's our net worth?
    tools: {required: [get_net_worth]}
    key: {calls: [{tool: get_net_worth}], answer: "It is SGD 2,394,755."}
`
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunOverOAuth runs a suite against a server that wants an OAuth
// client-credentials token, and checks that no token and no secret
// reaches the run directory.
func TestRunOverOAuth(t *testing.T) {
	const secret = "cs-PLANTED-0xC0FFEE"
	as, endpoint := householdBehindOAuth(t, map[string]string{"ci-runner": secret})
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	t.Setenv("MCPEVAL_TEST_OAUTH_SECRET", secret)
	p := oauthSuite(t, endpoint, `{client_id: ci-runner, client_secret: "${MCPEVAL_TEST_OAUTH_SECRET}"}`)
	out := filepath.Join(t.TempDir(), "run")
	s, code, stderr := runJSON(t, "run", "--json", "--quiet", "--suite", p, "--attempts", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Totals.Graded != 2 || s.Totals.Passed != 2 {
		t.Errorf("totals %+v, want 2 of 2 passed", s.Totals)
	}
	if n := as.TokenCalls(""); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
	planted := append(as.Issued(), secret)
	if len(planted) < 2 {
		t.Fatal("no token was issued")
	}
	noFileHolds(t, out, planted...)
	// The token is cached in the user's config directory.
	file := target.TokenFile(filepath.Join(config, "mcpeval", "tokens"), endpoint)
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("token cache %s: %v %v", file, st, err)
	}

	// A wrong secret is refused, naming the server and the step (on a
	// machine with no token cached).
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("MCPEVAL_TEST_OAUTH_SECRET", "wrong-PLANTED")
	wrong := oauthSuite(t, endpoint, `{client_id: ci-runner, client_secret: "${MCPEVAL_TEST_OAUTH_SECRET}", scopes: [mcp:tools]}`)
	_, code, stderr = runJSON(t, "run", "--json", "--quiet", "--suite", wrong, "--attempts", "1", "--out", out+"-wrong")
	if code == 0 {
		t.Fatal("a run with a wrong client secret succeeded")
	}
	for _, want := range []string{endpoint, "client_credentials", "token endpoint refused", "invalid_client"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "PLANTED") {
		t.Errorf("stderr shows the secret:\n%s", stderr)
	}
}

// TestLogin logs in as a person would, with a scripted browser, then runs
// a suite whose target needs the authorization code flow: the run uses
// the cached token.
func TestLogin(t *testing.T) {
	as, endpoint := householdBehindOAuth(t, nil)
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	opened := 0
	loginBrowser = func(ctx context.Context, url string) error {
		opened++
		resp, err := http.Get(url) // consent, and follow the redirect back
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	t.Cleanup(func() { loginBrowser = target.OpenBrowser })

	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"login", endpoint}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("login: exit %d: %s", code, stderr.String())
	}
	file := target.TokenFile(filepath.Join(config, "mcpeval", "tokens"), endpoint)
	if !strings.Contains(stdout.String(), file) || !strings.Contains(stderr.String(), "127.0.0.1") {
		t.Errorf("login printed:\n%s\n%s", stdout.String(), stderr.String())
	}
	if opened != 1 || as.TokenCalls("authorization_code") != 1 {
		t.Fatalf("browser opened %d times, %d codes exchanged", opened, as.TokenCalls("authorization_code"))
	}
	for _, tok := range as.Issued() {
		if strings.Contains(stdout.String()+stderr.String(), tok) {
			t.Errorf("login printed a token")
		}
	}

	// A server logged in to needs no oauth: mapping: tools and run use
	// its cached token.
	stdout.Reset()
	if code := Main(context.Background(), []string{"tools", endpoint}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "get_net_worth") {
		t.Fatalf("tools after login: exit %d: %s", code, stderr.String())
	}
	if _, code, errs := runJSON(t, "run", "--json", "--quiet", "--target", endpoint, "--attempts", "1", "--out", filepath.Join(t.TempDir(), "run")); code != 0 {
		t.Fatalf("run --target after login: exit %d: %s", code, errs)
	}

	p := oauthSuite(t, endpoint, `{flow: authorization_code}`)
	s, code, errs := runJSON(t, "run", "--json", "--quiet", "--suite", p, "--attempts", "1", "--out", filepath.Join(t.TempDir(), "run"))
	if code != 0 || s.Totals.Passed != 1 {
		t.Fatalf("run after login: exit %d, totals %+v: %s", code, s.Totals, errs)
	}
	if opened != 1 || as.TokenCalls("") != 1 {
		t.Errorf("the run opened the browser %d times and made %d token requests; want the login's alone", opened, as.TokenCalls(""))
	}
}

func TestLoginUsage(t *testing.T) {
	for _, args := range [][]string{{"login"}, {"login", "builtin:household"}, {"login", "--suite", "x", "https://example.com/mcp"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr.String())
		}
	}
}

// TestInsecureTokenCacheSaysWhy logs in, then makes the token cache
// readable by others: a run does not use it, and says so, naming the file
// and what to do, for a server logged in to and for a suite's
// authorization_code target alike.
func TestInsecureTokenCacheSaysWhy(t *testing.T) {
	_, endpoint := householdBehindOAuth(t, nil)
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	loginBrowser = func(ctx context.Context, url string) error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	t.Cleanup(func() { loginBrowser = target.OpenBrowser })
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"login", endpoint}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("login: exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(target.TokenFile(filepath.Join(config, "mcpeval", "tokens"), endpoint))
	if err != nil {
		t.Fatal(err)
	}
	// Another user's configuration directory, as a fresh mcpeval reads it,
	// with the cache readable by all.
	other := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", other)
	file := target.TokenFile(filepath.Join(other, "mcpeval", "tokens"), endpoint)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--json", "--quiet", "--target", endpoint, "--attempts", "1", "--out", filepath.Join(t.TempDir(), "run")},
		{"run", "--json", "--quiet", "--suite", oauthSuite(t, endpoint, `{flow: authorization_code}`), "--attempts", "1", "--out", filepath.Join(t.TempDir(), "run")},
	} {
		_, code, errs := runJSON(t, args...)
		if code == 0 {
			t.Fatalf("%v: a run used a token cache others can read", args)
		}
		for _, want := range []string{file, "readable by others", "mcpeval login"} {
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr does not say %q:\n%s", args[:4], want, errs)
			}
		}
	}
}

// TestLoginAgainAddsScopes: a second login with --scope asks for the
// scopes the cached token was granted and the new ones together, even
// though the cached token still works.
func TestLoginAgainAddsScopes(t *testing.T) {
	_, endpoint := householdBehindOAuth(t, nil)
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	var asked []string
	loginBrowser = func(ctx context.Context, u string) error {
		if pu, err := url.Parse(u); err == nil {
			asked = append(asked, pu.Query().Get("scope"))
		}
		resp, err := http.Get(u)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	t.Cleanup(func() { loginBrowser = target.OpenBrowser })
	for _, args := range [][]string{{"login", endpoint}, {"login", "--scope", "vault:open", endpoint}} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
	}
	if len(asked) != 2 {
		t.Fatalf("the browser was opened %d times (scopes %q), want twice", len(asked), asked)
	}
	if got := strings.Fields(asked[1]); !slices.Contains(got, "mcp:tools") || !slices.Contains(got, "vault:open") {
		t.Errorf("the second login asked for %q, want mcp:tools and vault:open", asked[1])
	}
}

// TestLoginClientMetadataURL: --client-metadata-url makes the document's
// URL the client ID where the authorization server supports it.
func TestLoginClientMetadataURL(t *testing.T) {
	const doc = "https://app.example/mcpeval/client.json"
	as := authserver.New(authserver.Options{MetadataDocuments: map[string]*oauthex.ClientRegistrationMetadata{
		doc: {RedirectURIs: []string{"http://127.0.0.1/callback"}, TokenEndpointAuthMethod: "none"},
	}})
	t.Cleanup(as.Close)
	server, err := builtin.Server("household", false)
	if err != nil {
		t.Fatal(err)
	}
	rs := as.Protect(server)
	t.Cleanup(rs.Close)
	endpoint := rs.URL + "/mcp"
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	var clientID string
	loginBrowser = func(ctx context.Context, u string) error {
		if pu, err := url.Parse(u); err == nil {
			clientID = pu.Query().Get("client_id")
		}
		resp, err := http.Get(u)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	t.Cleanup(func() { loginBrowser = target.OpenBrowser })
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"login", "--client-metadata-url", doc, endpoint}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("login: exit %d: %s", code, stderr.String())
	}
	if clientID != doc {
		t.Errorf("the authorization request's client_id is %q, want %q", clientID, doc)
	}
}

// TestRunOverOAuthPrivateKeyJWT runs a suite whose client authenticates
// with a signed JWT (private_key_jwt), and checks that neither the key,
// nor an assertion, nor a token reaches the run directory or the output.
func TestRunOverOAuthPrivateKeyJWT(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyFile := filepath.Join(t.TempDir(), "client.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	as := authserver.New(authserver.Options{KeyClients: map[string]crypto.PublicKey{"ci-signer": key.Public()}})
	t.Cleanup(as.Close)
	server, err := builtin.Server("household", false)
	if err != nil {
		t.Fatal(err)
	}
	rs := as.Protect(server)
	t.Cleanup(rs.Close)
	endpoint := rs.URL + "/mcp"
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	t.Setenv("MCPEVAL_TEST_KEY_FILE", keyFile)
	p := oauthSuite(t, endpoint, `{client_id: ci-signer, private_key_file: "${MCPEVAL_TEST_KEY_FILE}"}`)
	out := filepath.Join(t.TempDir(), "run")
	s, code, stderr := runJSON(t, "run", "--json", "--quiet", "--suite", p, "--attempts", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Totals.Graded != 2 || s.Totals.Passed != 2 {
		t.Errorf("totals %+v, want 2 of 2 passed", s.Totals)
	}
	if len(as.Assertions()) != 1 || len(as.Issued()) != 1 {
		t.Fatalf("%d assertions accepted, %d tokens issued; want 1 and 1", len(as.Assertions()), len(as.Issued()))
	}
	b64 := base64.StdEncoding.EncodeToString(der)
	planted := append(as.Issued(), as.Assertions()...)
	planted = append(planted, b64[:32], b64[len(b64)-32:])
	noFileHolds(t, out, planted...)
	for _, p := range planted {
		if strings.Contains(stderr, p) {
			t.Errorf("stderr holds %q", p)
		}
	}
}
