package target

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// cachedToken is one server's token as the cache file holds it, with what
// refreshing it needs.
type cachedToken struct {
	// Server is the target's URL the token is for.
	Server string `json:"server"`
	Flow   string `json:"flow"`
	// ClientID is the client the token was issued to; ClientSecret is
	// kept only when the authorization server issued it at dynamic
	// registration (a configured secret stays in the environment).
	ClientID     string    `json:"client_id,omitempty"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenURL     string    `json:"token_url,omitempty"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scopes are the scopes the token was granted: those the token
	// response names, else those asked for.
	Scopes []string `json:"scopes,omitempty"`
}

func (c *cachedToken) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: c.AccessToken, TokenType: c.TokenType, RefreshToken: c.RefreshToken, Expiry: c.Expiry}
}

func (c *cachedToken) setToken(t *oauth2.Token) {
	c.AccessToken, c.TokenType, c.Expiry = t.AccessToken, t.TokenType, t.Expiry
	if t.RefreshToken != "" {
		c.RefreshToken = t.RefreshToken
	}
	if scope, ok := t.Extra("scope").(string); ok && scope != "" {
		// A set (RFC 6749 §3.3): kept sorted, as unionScopes keeps
		// what is asked for, whatever order the server grants in.
		c.Scopes = strings.Fields(scope)
		slices.Sort(c.Scopes)
	}
}

// TokenFile returns the file in dir that caches the token of the server
// at url: the SHA-256 of the URL, in hex, so that the file's name says
// nothing of the server.
func TokenFile(dir, url string) string {
	return filepath.Join(dir, hashString(url)+".json")
}

func hashString(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// loadToken reads the cached token of server from dir. A file others could
// read is not trusted: a token that may have leaked is not used.
func loadToken(dir, server string) (*cachedToken, error) {
	path := TokenFile(dir, server)
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, &insecureCacheError{path: path, mode: st.Mode().Perm()}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c cachedToken
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("token cache %s: %w", path, err)
	}
	if c.Server != server || c.AccessToken == "" {
		return nil, errors.New("token cache: not this server's")
	}
	return &c, nil
}

// insecureCacheError says a token cache file was not used because others
// could read it: a token that may have leaked is not sent.
type insecureCacheError struct {
	path string
	mode os.FileMode
}

func (e *insecureCacheError) Error() string {
	return fmt.Sprintf("the token cache %s is readable by others (mode %v), so it was not used: run mcpeval login again (the new cache is for you alone)", e.path, e.mode)
}

// saveToken writes c to its file in dir, creating dir with mode 0700 and
// the file with mode 0600, atomically: a reader sees the old token or the
// new one.
func saveToken(dir string, c *cachedToken) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	if err := os.Rename(f.Name(), TokenFile(dir, c.Server)); err != nil {
		return fmt.Errorf("caching the OAuth token: %w", err)
	}
	return nil
}

func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch b := os.Getenv("BROWSER"); {
	case b != "":
		args, err := SplitCommand(b)
		if err != nil || len(args) == 0 {
			return fmt.Errorf("$BROWSER %q: not a command", b)
		}
		cmd = exec.Command(args[0], append(args[1:], url)...)
	case runtime.GOOS == "darwin":
		cmd = exec.Command("open", url)
	case runtime.GOOS == "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	go cmd.Wait()
	return nil
}
