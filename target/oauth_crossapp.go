package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// grantJWTBearer is the grant type that trades an assertion for a token
// (RFC 7523 section 2.1).
const grantJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// checkCrossApp checks the settings of the cross-app access flow.
func (o *OAuth) checkCrossApp() error {
	u, err := url.Parse(o.IdPIssuer)
	switch {
	case o.IdPIssuer == "":
		return fmt.Errorf("oauth: the %s flow needs idp_issuer", FlowCrossApp)
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return fmt.Errorf("oauth: idp_issuer %q: want the identity provider's http(s) issuer URL", o.IdPIssuer)
	case o.IdPClientID == "" || o.ClientID == "":
		return fmt.Errorf("oauth: the %s flow needs idp_client_id (the client at the identity provider) and client_id (the client at the MCP server's authorization server)", FlowCrossApp)
	case (o.IDTokenEnv == "") == (o.IDTokenFile == ""):
		return fmt.Errorf("oauth: the %s flow needs the ID token from id_token_env or id_token_file (one of them)", FlowCrossApp)
	case o.PrivateKeyFile != "":
		return errors.New("oauth: private_key_file is for the client_credentials flow")
	case o.ClientMetadataURL != "":
		return errors.New("oauth: client_metadata_url is for the authorization_code flow")
	}
	return nil
}

// idToken reads the person's ID token from the variable or the file the
// settings name. Errors name where it was looked for, never its value.
func (o *OAuth) idToken() (string, error) {
	if o.IDTokenEnv != "" {
		v := strings.TrimSpace(os.Getenv(o.IDTokenEnv))
		if v == "" {
			return "", fmt.Errorf("reading the ID token: the environment variable %s is empty or not set", o.IDTokenEnv)
		}
		return v, nil
	}
	file := os.Expand(o.IDTokenFile, os.Getenv)
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("reading the ID token: %w", err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return "", fmt.Errorf("reading the ID token: the file %s is empty", file)
	}
	return v, nil
}

// addIDToken registers the ID token the settings name, as getenv and the
// file have it now, as a secret of k.
func (o *OAuth) addIDToken(k *redact.Known, getenv func(string) string) {
	if o.IDTokenEnv != "" {
		k.Add(getenv(o.IDTokenEnv))
	}
	if o.IDTokenFile != "" {
		if b, err := os.ReadFile(os.Expand(o.IDTokenFile, getenv)); err == nil {
			k.Add(string(b))
		}
	}
}

// crossApp runs cross-app access: it discovers the MCP server's
// authorization server as the other flows do and the identity provider
// from its issuer, and returns a source that, for every token it fetches,
// reads the ID token, exchanges it at the identity provider for an
// identity assertion grant (an ID-JAG) for that authorization server and
// resource, and presents the grant there with the JWT bearer grant.
//
// It does what the go-sdk's extauth.EnterpriseHandler does, with three
// differences that let it reach servers that one cannot: the MCP server's
// authorization server and resource are discovered from the server's
// challenge rather than configured, the client authenticates there with
// HTTP Basic when the metadata allows (the handler sends the secret in the
// body, which an authorization server offering only client_secret_basic
// refuses), and an identity provider whose metadata names no PKCE method
// is accepted (the handler's discovery requires one, which a token
// exchange does not use).
func (h *oauthHandler) crossApp(ctx context.Context, req *http.Request, resp *http.Response, ch challenge, want []string, meta *cachedToken) (oauth2.TokenSource, error) {
	resp.Body.Close()
	prm, asm, err := h.discover(ctx, req.URL.String(), ch)
	if err != nil {
		return nil, err
	}
	idp, err := h.idpMetadata(ctx)
	if err != nil {
		return nil, err
	}
	scopes := want
	if len(scopes) == 0 {
		scopes = ch.scopes
	}
	if len(scopes) == 0 {
		scopes = prm.ScopesSupported
	}
	resource := prm.Resource
	if resource == "" {
		resource = req.URL.String()
	}
	meta.TokenURL, meta.Scopes = asm.TokenEndpoint, scopes
	c := &crossAppSource{o: h.o, client: h.client, idpToken: idp.TokenEndpoint, issuer: asm.Issuer, resource: resource,
		tokenURL: asm.TokenEndpoint, scopes: scopes, style: authStyle(asm.TokenEndpointAuthMethodsSupported)}
	return oauth2.ReuseTokenSource(nil, c), nil
}

// idpMetadata reads the identity provider's metadata: OAuth
// authorization server metadata (RFC 8414) or OpenID Connect discovery,
// at the addresses its issuer implies. Its issuer must be the configured
// one. Unlike an MCP server's authorization server, the identity
// provider need not offer PKCE: the token exchange uses none.
func (h *oauthHandler) idpMetadata(ctx context.Context) (*oauthex.AuthServerMeta, error) {
	u, err := url.Parse(h.o.IdPIssuer)
	if err != nil {
		return nil, fmt.Errorf("parsing idp_issuer: %w", err)
	}
	path := strings.TrimSuffix(u.Path, "/")
	root := u.Scheme + "://" + u.Host
	var errs []error
	for _, m := range []string{root + "/.well-known/oauth-authorization-server" + path, root + "/.well-known/openid-configuration" + path, root + path + "/.well-known/openid-configuration"} {
		meta, err := getJSON[oauthex.AuthServerMeta](ctx, h.client, m)
		switch {
		case err != nil:
			errs = append(errs, err)
		case strings.TrimSuffix(meta.Issuer, "/") != strings.TrimSuffix(h.o.IdPIssuer, "/"):
			return nil, fmt.Errorf("the identity provider's metadata at %s names issuer %q, not %q", m, meta.Issuer, h.o.IdPIssuer)
		case meta.TokenEndpoint == "":
			return nil, fmt.Errorf("the identity provider's metadata at %s names no token endpoint", m)
		default:
			return meta, nil
		}
	}
	return nil, fmt.Errorf("reading the identity provider's metadata: %w", errors.Join(errs...))
}

// getJSON fetches the JSON document at u, of at most 1 MiB.
func getJSON[T any](ctx context.Context, c *http.Client, u string) (*T, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", u, resp.Status)
	}
	var v T
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil {
		return nil, fmt.Errorf("%s: decoding: %w", u, err)
	}
	return &v, nil
}

// authStyle returns how a client authenticates to a token endpoint whose
// metadata names methods: with HTTP Basic, which every authorization
// server supports (RFC 6749 section 2.3.1), unless it names
// client_secret_post and not client_secret_basic.
func authStyle(methods []string) oauth2.AuthStyle {
	if slices.Contains(methods, "client_secret_post") && !slices.Contains(methods, "client_secret_basic") {
		return oauth2.AuthStyleInParams
	}
	return oauth2.AuthStyleInHeader
}

// crossAppSource fetches tokens by cross-app access. Neither the ID token
// nor the grant is kept: each token fetched reads the ID token anew.
type crossAppSource struct {
	o                                    OAuth
	client                               *http.Client
	idpToken, issuer, resource, tokenURL string
	scopes                               []string
	style                                oauth2.AuthStyle
}

func (c *crossAppSource) Token() (*oauth2.Token, error) {
	idToken, err := c.o.idToken()
	if err != nil {
		return nil, err
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, c.client)
	creds := &oauthex.ClientCredentials{ClientID: c.o.IdPClientID}
	if c.o.IdPClientSecret != "" {
		creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: c.o.IdPClientSecret}
	}
	grant, err := oauthex.ExchangeToken(ctx, c.idpToken, &oauthex.TokenExchangeRequest{
		RequestedTokenType: oauthex.TokenTypeIDJAG,
		Audience:           c.issuer,
		Resource:           c.resource,
		Scope:              c.scopes,
		SubjectToken:       idToken,
		SubjectTokenType:   oauthex.TokenTypeIDToken,
	}, creds, c.client)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("the identity provider's token endpoint refused to exchange the ID token (%s)", refusal(re))
		}
		return nil, fmt.Errorf("exchanging the ID token at the identity provider: %w", err)
	}
	if typ, _ := grant.Extra("issued_token_type").(string); typ != oauthex.TokenTypeIDJAG {
		return nil, fmt.Errorf("the identity provider issued a token of type %q, not an identity assertion grant", redact.Secrets(typ))
	}
	cfg := &oauth2.Config{ClientID: c.o.ClientID, ClientSecret: c.o.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: c.tokenURL, AuthStyle: c.style}}
	if c.o.ClientSecret == "" {
		cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams // a public client names itself in the body
	}
	opts := []oauth2.AuthCodeOption{
		oauth2.SetAuthURLParam("grant_type", grantJWTBearer),
		oauth2.SetAuthURLParam("assertion", grant.AccessToken),
	}
	if len(c.scopes) > 0 {
		opts = append(opts, oauth2.SetAuthURLParam("scope", strings.Join(c.scopes, " ")))
	}
	return cfg.Exchange(ctx, "", opts...)
}

// refusal says what a token endpoint's error response says: its error
// code and description, else its HTTP status, scrubbed of secrets.
func refusal(re *oauth2.RetrieveError) string {
	what := re.ErrorCode
	if re.ErrorDescription != "" {
		what += ": " + re.ErrorDescription
	}
	if what == "" && re.Response != nil {
		what = re.Response.Status
	}
	return redact.Secrets(what)
}
