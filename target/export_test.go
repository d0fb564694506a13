package target

import "net/http"

// Pid is the pid of a stdio server's process, which leads its own process
// group (0 for other kinds).
func (c *Conn) Pid() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// SetBaseTransport makes rt the transport under the HTTP clients made for
// targets from now on, until the test ends (a test's TLS server is trusted
// by its own client's transport only).
func SetBaseTransport(t interface{ Cleanup(func()) }, rt http.RoundTripper) {
	old := baseTransport
	baseTransport = rt
	t.Cleanup(func() { baseTransport = old })
}
