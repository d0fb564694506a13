package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
)

// TestSubprocess builds the real mcpeval and runs it as a subprocess
// against a slow stdio target, killing and interrupting it.
func TestSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpeval and runs it as a subprocess")
	}
	if runtime.GOOS == "windows" {
		t.Skip("sends POSIX signals")
	}
	bin := filepath.Join(t.TempDir(), "mcpeval")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("kill-and-resume", func(t *testing.T) { killAndResume(t, bin) })
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) { signalStops(t, bin, sig) })
	}
	t.Run("fifo-sigterm", func(t *testing.T) { fifoSigterm(t, bin) })
	t.Run("grandchild", func(t *testing.T) { grandchildDies(t, bin) })
}

// fifoSigterm: "mcpeval report RUN --html FIFO" with nobody reading the
// FIFO waits for a reader, and one SIGTERM ends it.
func fifoSigterm(t *testing.T, bin string) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if out, err := exec.Command(bin, "run", "--attempts", "1", "--case", "single-tool/bnd-units", "--out", run, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	fifo := filepath.Join(dir, "page.html")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "report", run, "--html", fifo)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	printed := make(chan struct{})
	go func() {
		// The text report, printed before the page, ends with the record's
		// path: by then mcpeval handles signals itself.
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "record:") {
				close(printed)
				break
			}
		}
		io.Copy(io.Discard, stdout)
		done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case <-printed:
	case <-time.After(30 * time.Second):
		t.Fatalf("report printed no text report\n%s", stderr.String())
	}
	time.Sleep(200 * time.Millisecond) // from the text to the FIFO
	select {
	case err := <-done:
		t.Fatalf("report ended before it was signalled: %v\n%s", err, stderr.String())
	default:
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("report still running 30s after one SIGTERM, blocked on the FIFO\n%s", stderr.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("report was killed by %v, want it to exit", ws.Signal())
	}
	if !strings.Contains(stderr.String(), "page.html") {
		t.Errorf("stderr does not name the FIFO: %s", stderr.String())
	}
}

// grandchildDies runs a real mcpeval against a shell script server that
// starts a sleep of its own, then kills mcpeval alone with SIGKILL: the
// sleep, the server's child, must die with it.
func grandchildDies(t *testing.T, bin string) {
	if runtime.GOOS != "linux" {
		t.Skip("mcpeval watches its servers' process groups on Linux")
	}
	fs, err := exec.LookPath("faultserver")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "sleep.pid")
	script := filepath.Join(dir, "server.sh")
	body := "#!/bin/sh\nsleep 300 &\necho $! > '" + pidFile + "'\nexec '" + fs + "' -serve household -delay 50ms\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, "run", "--quiet", "--target", "stdio:"+script, "--attempts", "3", "--concurrency", "1", "--out", filepath.Join(dir, "run"))
	var sleep int
	for deadline := time.Now().Add(20 * time.Second); sleep == 0 && time.Now().Before(deadline) && !p.exited(); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(pidFile)
		fmt.Sscan(string(data), &sleep)
	}
	if sleep == 0 {
		t.Fatalf("the server never started its sleep\n%s", p.stderr.String())
	}
	t.Cleanup(func() { syscall.Kill(sleep, syscall.SIGKILL) })
	time.Sleep(300 * time.Millisecond) // the run under way
	if p.exited() {
		t.Fatalf("mcpeval ended before it could be killed: exit %d\n%s", p.code(), p.stderr.String())
	}
	p.cmd.Process.Kill() // mcpeval alone, as kill -9 PID does
	<-p.done
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(sleep) {
			return
		}
	}
	t.Errorf("the server's child (pid %d) outlived mcpeval's SIGKILL", sleep)
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command's closing parenthesis.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// slowTarget is the household target behind the fault server, each tool
// call delayed so that a run lasts long enough to be killed mid-way.
func slowTarget(t *testing.T) string {
	t.Helper()
	fs, err := exec.LookPath("faultserver") // put on PATH by TestMain
	if err != nil {
		t.Fatal(err)
	}
	return "stdio:" + fs + " -serve household -delay 15ms"
}

// proc is a running mcpeval.
type proc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

func start(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stderr = &p.stderr
	// Its own process group: a signal to the group reaches the target
	// servers too, as Ctrl-C on a terminal does.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	})
	return p
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) code() int {
	<-p.done
	return p.cmd.ProcessState.ExitCode()
}

// attemptLines counts the finished attempt lines of the record in dir.
func attemptLines(dir string) int {
	data, err := os.ReadFile(filepath.Join(dir, record.FileName))
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n{\"attempt\":"))
}

// waitAttempts waits until the record in dir holds n more attempt lines
// than before, or the process ends.
func waitAttempts(p *proc, dir string, before, n int) {
	for !p.exited() && attemptLines(dir) < before+n {
		time.Sleep(2 * time.Millisecond)
	}
}

type key struct {
	Case string
	N    int
}

// checkRecord reads the record in dir, checking that no attempt line
// appears twice and that it holds exactly the planned attempts, and
// returns its grades.
func checkRecord(t *testing.T, dir string) []grade.AttemptGrade {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[key]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, record.MaxLine)
	for n := 1; sc.Scan(); n++ {
		var l struct{ Attempt *key }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s:%d: %v", dir, n, err)
		}
		if l.Attempt != nil {
			k := key{l.Attempt.Case, l.Attempt.N}
			if first, dup := seen[k]; dup {
				t.Errorf("%s:%d: attempt %s #%d already recorded at line %d", dir, n, k.Case, k.N, first)
			}
			seen[k] = n
		}
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Warnings) != 0 {
		t.Errorf("%s: complete %v, warnings %q", dir, rec.Complete(), rec.Warnings)
	}
	var planned, got []string
	for _, p := range rec.Header.Planned {
		planned = append(planned, fmt.Sprintf("%s #%d", p.Case, p.N))
	}
	for k := range seen {
		got = append(got, fmt.Sprintf("%s #%d", k.Case, k.N))
	}
	sort.Strings(planned)
	sort.Strings(got)
	if d := cmp.Diff(planned, got); d != "" {
		t.Errorf("%s: attempts recorded differ from those planned (-planned +recorded):\n%s", dir, d)
	}
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	return grade.Run(s, rec).Attempts
}

// killAndResume kills a real mcpeval run with SIGKILL at random points,
// resumes it each time, and checks that the attempts finally recorded are
// those of an uninterrupted run, none twice, with the same grades.
func killAndResume(t *testing.T, bin string) {
	tgt := slowTarget(t)
	common := []string{"--quiet", "--json", "--target", tgt, "--concurrency", "2"}
	tmp := t.TempDir()

	clean := filepath.Join(tmp, "clean")
	p := start(t, bin, append([]string{"run", "--out", clean, "--attempts", "2"}, common...)...)
	if c := p.code(); c != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", c, p.stderr.String())
	}
	want := checkRecord(t, clean)

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	dir := filepath.Join(tmp, "killed")
	kills := 0
	for leg := 1; ; leg++ {
		if leg > 12 {
			t.Fatal("the run did not finish in 12 legs")
		}
		args := append([]string{"run", "--resume", dir}, common...)
		if _, err := os.Stat(filepath.Join(dir, record.FileName)); err != nil {
			args = append([]string{"run", "--out", dir, "--attempts", "2"}, common...) // killed before its record existed
		}
		before := attemptLines(dir)
		p := start(t, bin, args...)
		if kills < 4 {
			if leg == 1 {
				time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond) // perhaps before the record exists
			} else {
				waitAttempts(p, dir, before, 1+rng.IntN(8))
				time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
			}
			if !p.exited() {
				syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
				<-p.done
				kills++
				t.Logf("leg %d: killed with %d attempts recorded", leg, attemptLines(dir))
				continue
			}
		}
		if c := p.code(); c != 0 {
			t.Fatalf("leg %d: exit %d\n%s", leg, c, p.stderr.String())
		}
		break
	}
	if kills < 3 {
		t.Errorf("only %d kills landed mid-run", kills)
	}
	got := checkRecord(t, dir)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("grades after kills and resumes differ from an uninterrupted run's (-clean +resumed):\n%s", d)
	}
}

// signalStops sends SIGTERM, or SIGINT to the whole process group as
// Ctrl-C does, to a running mcpeval: it must stop starting attempts, record
// none that the signal broke, end the record incomplete, exit 4 and print
// the command that resumes it; which then completes it.
func signalStops(t *testing.T, bin string, sig syscall.Signal) {
	tgt := slowTarget(t)
	dir := filepath.Join(t.TempDir(), "run")
	common := []string{"--quiet", "--json", "--target", tgt, "--concurrency", "3"}
	p := start(t, bin, append([]string{"run", "--out", dir, "--attempts", "2"}, common...)...)
	waitAttempts(p, dir, 0, 4)
	if p.exited() {
		t.Fatalf("the run ended before it could be interrupted: exit %d\n%s", p.code(), p.stderr.String())
	}
	if sig == syscall.SIGINT {
		syscall.Kill(-p.cmd.Process.Pid, sig) // the group: the target servers get it too
	} else {
		p.cmd.Process.Signal(sig)
	}
	if c := p.code(); c != exitIncomplete {
		t.Fatalf("exit %d, want %d\n%s", c, exitIncomplete, p.stderr.String())
	}
	if want := "mcpeval run --resume " + dir; !strings.Contains(p.stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, p.stderr.String())
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Complete() || rec.End == nil || rec.End.Reason != "interrupted" || rec.End.Skipped["interrupted"] == 0 {
		t.Errorf("end %+v, want an incomplete run, interrupted", rec.End)
	}
	if n := len(rec.Attempts) + rec.End.Skipped["interrupted"]; n != len(rec.Header.Planned) {
		t.Errorf("%d recorded + %d skipped, %d planned", len(rec.Attempts), rec.End.Skipped["interrupted"], len(rec.Header.Planned))
	}
	for _, a := range rec.Attempts {
		if a.End == record.EndError {
			t.Errorf("attempt %s #%d was recorded as an error (%+v): the signal broke it, so it must be left for --resume", a.Case, a.N, a.Error)
		}
	}
	p = start(t, bin, append([]string{"run", "--resume", dir}, common...)...)
	if c := p.code(); c != 0 {
		t.Fatalf("resume: exit %d\n%s", c, p.stderr.String())
	}
	for _, g := range checkRecord(t, dir) {
		if g.Outcome != grade.Pass {
			t.Errorf("%s #%d: %s %v", g.Case, g.N, g.Outcome, g.Reasons)
		}
	}
}
