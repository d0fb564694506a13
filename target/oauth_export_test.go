package target

// ForgetOAuthHandlers drops the OAuth handlers this process shares between
// connections, as a new mcpeval process starts without them: only the
// token cache remains.
func ForgetOAuthHandlers() {
	handlers.Lock()
	defer handlers.Unlock()
	clear(handlers.m)
}
