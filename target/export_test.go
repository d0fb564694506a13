package target

// Pid is the pid of a stdio server's process, which leads its own process
// group (0 for other kinds).
func (c *Conn) Pid() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}
