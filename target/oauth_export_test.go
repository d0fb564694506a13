package target

import "net/http"

// ForgetOAuthHandlers drops the OAuth handlers this process shares between
// connections, as a new mcpeval process starts without them: only the
// token cache remains.
func ForgetOAuthHandlers() {
	handlers.Lock()
	defer handlers.Unlock()
	clear(handlers.m)
}

// ChallengeScopes returns the scopes a refusal's WWW-Authenticate header
// asks for, as step-up authorization reads them.
func ChallengeScopes(status int, header string) []string {
	return readChallenge(&http.Response{StatusCode: status, Header: http.Header{"Www-Authenticate": {header}}}).scopes
}
