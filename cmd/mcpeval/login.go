package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/target"
)

const loginHelp = `
Usage: mcpeval login [--suite PATH | URL] [--client-id ID] [--client-metadata-url URL] [--scope SCOPE]... [--timeout 5m]

Authorizes mcpeval to an HTTP MCP server protected by OAuth, as a person
at a browser: it opens the server's authorization page (the command
$BROWSER names, else the system's browser; the address is also printed),
listens for the redirect on 127.0.0.1 at a random port, exchanges the
code with PKCE, and caches the token for this user alone (0600) under
the user's config directory (mcpeval/tokens). Later runs against the
server use the cached token, and refresh it when it expires, without
asking again; a server logged in to by URL needs no oauth: mapping in a
suite (mcpeval tools URL and mcpeval run --target URL find its token). No
token is ever printed or recorded.

A login always asks the person again, even when a token is cached, and
asks for the scopes the cached token was granted as well as the others:
when a server answers a call 403 insufficient_scope (step-up
authorization), log in again with --scope naming the scopes it asked for,
and the new token keeps the old ones.

With --suite, the suite's target and its oauth: settings are used; with a
URL, the server is reached directly, and mcpeval registers itself with the
authorization server when no --client-id is given. With
--client-metadata-url, an authorization server that supports client ID
metadata documents takes that URL as mcpeval's client ID instead. A suite
whose oauth: says client_credentials needs no login: runs get the token
themselves.

Examples:
  mcpeval login https://mcp.example.com/mcp
  mcpeval login --suite my-suite/
  mcpeval login --scope files:write https://mcp.example.com/mcp
`

func init() {
	register(&command{name: "login", summary: "authorize mcpeval to an OAuth-protected HTTP server and cache the token", run: loginCmd})
}

// loginBrowser opens the authorization URL; tests replace it with a
// scripted browser.
var loginBrowser = target.OpenBrowser

func loginCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "login", loginHelp)
	suitePath := fs.String("suite", "", "log in to the target of the suite at `PATH`, with its oauth: settings")
	clientID := fs.String("client-id", "", "the client `ID` registered with the authorization server (default: register dynamically)")
	metadataURL := fs.String("client-metadata-url", "", "the https `URL` of a client ID metadata document to use as the client ID, where the authorization server supports them")
	var scopes repeated
	fs.Var(&scopes, "scope", "ask for `SCOPE` instead of what the server's metadata names (with those the cached token was granted); repeatable")
	timeout := fs.Duration("timeout", 5*time.Minute, "how long to wait for the person to finish in the browser")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	var t target.Config
	switch {
	case *suitePath != "" && len(pos) > 0:
		return usagef("give --suite or a URL, not both (see mcpeval help login)")
	case *suitePath != "":
		s, err := loadSuite(*suitePath)
		if err != nil {
			return err
		}
		if t, err = runner.ResolveTarget(s, runner.TargetOverrides{}); err != nil {
			return badInput(err)
		}
	case len(pos) == 1:
		t = target.Config{Spec: pos[0]}
	default:
		return usagef("want the URL of an HTTP MCP server, or --suite PATH (see mcpeval help login)")
	}
	if t.Kind() != "http" {
		return usagef("target %s: login is for http(s) targets", t.Shown())
	}
	if t.OAuth == nil {
		t.OAuth = &target.OAuth{Flow: target.FlowAuthorizationCode}
	} else {
		o := *t.OAuth
		t.OAuth = &o
	}
	if *clientID != "" {
		t.OAuth.ClientID = *clientID
	}
	if *metadataURL != "" {
		t.OAuth.ClientMetadataURL = *metadataURL
	}
	if len(scopes) > 0 {
		t.OAuth.Scopes = []string(scopes)
	}
	if *timeout <= 0 {
		return usagef("--timeout %s: want a positive duration", *timeout)
	}
	t.ConnectTimeout = *timeout
	t.OAuth.Reauthorize = true
	t.OAuth.Browser = func(ctx context.Context, url string) error {
		fmt.Fprintf(e.stderr, "Opening the authorization page of %s in your browser. If it does not open, visit:\n  %s\n", t.Shown(), url)
		if err := loginBrowser(ctx, url); err != nil {
			fmt.Fprintf(e.stderr, "(could not open a browser: %v)\n", err)
		}
		return nil
	}
	if err := t.Check(); err != nil {
		return badInput(err)
	}
	conn, err := target.Dial(ctx, t)
	if err != nil {
		return fmt.Errorf("logging in to %s: %w", t.Shown(), err)
	}
	conn.Close()
	dir := t.OAuth.TokenDir
	if dir == "" {
		if dir, err = target.TokenDir(); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "Logged in to %s; the token is cached in %s\n", t.Shown(), target.TokenFile(dir, t.Spec))
	return nil
}
