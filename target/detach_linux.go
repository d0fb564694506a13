package target

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// detach starts a stdio server in its own process group, so that the
// terminal's Ctrl-C reaches mcpeval alone: mcpeval then stops starting
// attempts and closes its servers itself, rather than watching them die
// under attempts in flight. Should mcpeval be killed outright (SIGKILL),
// the kernel kills the server too (Pdeathsig), and watchGroup kills the
// rest of its group.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// watchScript kills process group $1 unless it reads "done": its stdin is
// a pipe only mcpeval writes to, so it reads end of file when mcpeval dies
// in any way, SIGKILL included.
const watchScript = `read -r line; [ "$line" = done ] || kill -9 -"$1"`

// watchGroup starts a watcher of the process group pgid a stdio server
// leads, and returns the function that stops it once mcpeval has closed
// the server itself. Pdeathsig reaches the server alone: the children a
// wrapper (npx, uv, a shell script) started would outlive a mcpeval killed
// with SIGKILL, reparented to init. The watcher is a shell in a process
// group of its own (so a Ctrl-C to mcpeval's group leaves it be) whose
// stdin is a pipe mcpeval holds the only write end of (close-on-exec, so
// no server inherits it): when mcpeval dies the kernel closes that end,
// the shell reads end of file and kills the group. No watcher is started
// when no shell can be; the server itself still dies by Pdeathsig.
func watchGroup(pgid int) (stop func()) {
	r, w, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchScript, "mcpeval-watch", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return func() {}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			io.WriteString(w, "done\n")
			w.Close()
			go cmd.Wait() // reap it
		})
	}
}
