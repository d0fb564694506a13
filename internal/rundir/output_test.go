//go:build unix

package rundir

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestWriteOutputNewAndRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "page.html")
	for _, s := range []string{"one", "two"} {
		if err := WriteOutput(context.Background(), p, nil, text(s)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != s {
			t.Errorf("%s holds %q, want %q", p, b, s)
		}
	}
	onlyFiles(t, dir, "page.html")
}

// TestWriteOutputThroughSymlink: a link to a regular file keeps being a
// link; the file it names is replaced.
func TestWriteOutputThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.xml")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.xml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := WriteOutput(context.Background(), link, nil, text("new")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("the linked file holds %q", b)
	}
}

func TestWriteOutputStdout(t *testing.T) {
	var out bytes.Buffer
	if err := WriteOutput(context.Background(), "-", &out, text("<xml/>")); err != nil || out.String() != "<xml/>" {
		t.Errorf("WriteOutput(context.Background(), -): %v, stdout %q", err, out.String())
	}
	out.Reset()
	if err := AppendOutput(context.Background(), "-", &out, text("# sum")); err != nil || out.String() != "# sum" {
		t.Errorf("AppendOutput(context.Background(), -): %v, stdout %q", err, out.String())
	}
}

// TestWriteOutputDevice: a device (the null device) is written through and
// stays a device. As root, a code that renamed over it would replace the
// system's /dev/null: the test then makes a null device of its own.
func TestWriteOutputDevice(t *testing.T) {
	dev := os.DevNull
	if os.Geteuid() == 0 {
		if runtime.GOOS != "linux" {
			t.Skip("as root, only on Linux, where the null device is 1,3")
		}
		dev = filepath.Join(t.TempDir(), "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skip(err)
		}
		if f, err := os.OpenFile(dev, os.O_WRONLY, 0); err != nil {
			t.Skip(err) // a filesystem mounted nodev
		} else {
			f.Close()
		}
	}
	before, err := os.Stat(dev)
	if err != nil || before.Mode()&os.ModeDevice == 0 {
		t.Skip("no null device")
	}
	for _, f := range []func(context.Context, string, io.Writer, func(io.Writer) error) error{WriteOutput, AppendOutput} {
		if err := f(context.Background(), dev, nil, text("x")); err != nil {
			t.Fatal(err)
		}
	}
	after, err := os.Stat(dev)
	if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
		t.Errorf("%s was replaced: %v -> %v (%v)", dev, before.Mode(), after.Mode(), err)
	}
}

// TestWriteOutputFIFO: a named pipe is written through: its reader gets
// the text, and the pipe is still a pipe.
func TestWriteOutputFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteOutput(context.Background(), p, nil, text("through")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the reader got nothing")
	}
	if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", st.Mode(), err)
	}
	onlyFiles(t, filepath.Dir(p), "pipe")
}

// TestWriteOutputDirectory: a directory is refused, and nothing is left
// beside it.
func TestWriteOutputDirectory(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	os.Mkdir(dir, 0o755)
	for name, f := range map[string]func(context.Context, string, io.Writer, func(io.Writer) error) error{"WriteOutput": WriteOutput, "AppendOutput": AppendOutput} {
		err := f(context.Background(), dir, nil, text("x"))
		if !errors.Is(err, ErrBadOutput) || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("%s(DIR): %v, want a directory refused", name, err)
		}
	}
	onlyFiles(t, parent, "out")
	onlyFiles(t, dir)
}

// TestWriteOutputMissingFolder: no folder is created; the error names the
// one missing.
func TestWriteOutputMissingFolder(t *testing.T) {
	parent := t.TempDir()
	missing := filepath.Join(parent, "no", "such")
	for name, f := range map[string]func(context.Context, string, io.Writer, func(io.Writer) error) error{"WriteOutput": WriteOutput, "AppendOutput": AppendOutput} {
		err := f(context.Background(), filepath.Join(missing, "report.xml"), nil, text("x"))
		if !errors.Is(err, ErrBadOutput) || !strings.Contains(err.Error(), missing+" does not exist") {
			t.Errorf("%s: %v, want the missing folder %s named", name, err, missing)
		}
	}
	onlyFiles(t, parent)
}

// TestAppendOutputAppends: a summary file gains text at its end.
func TestAppendOutputAppends(t *testing.T) {
	p := filepath.Join(t.TempDir(), "summary.md")
	for _, s := range []string{"a\n", "b\n"} {
		if err := AppendOutput(context.Background(), p, nil, text(s)); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "a\nb\n" {
		t.Errorf("%q", b)
	}
}

func TestLockRefusesSecond(t *testing.T) {
	dir := t.TempDir()
	l, err := Lock(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(dir, nil)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "process ") {
		t.Fatalf("a second lock: %v, want ErrLocked naming the holder", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := Lock(dir, nil)
	if err != nil {
		t.Fatalf("locking after unlock: %v", err)
	}
	l2.Unlock()
	onlyFiles(t, dir)
}

// TestLockTakesOverStale: a lock file left by a process that no longer
// runs is taken over, with a warning naming it.
func TestLockTakesOverStale(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	dir := t.TempDir()
	os.WriteFile(Path(dir, LockFile), []byte(strings.Join([]string{strconv.Itoa(dead), "2026-01-01T00:00:00Z\n"}, " ")), 0o644)
	var warned []string
	l, err := Lock(dir, func(s string) { warned = append(warned, s) })
	if err != nil {
		t.Fatalf("a stale lock: %v", err)
	}
	defer l.Unlock()
	if len(warned) != 1 || !strings.Contains(warned[0], "stale") || !strings.Contains(warned[0], strconv.Itoa(dead)) {
		t.Errorf("warnings %q, want one naming process %d", warned, dead)
	}
}

// TestWriteOutputDevStdout: /dev/stdout redirected to a file gets the
// output after what was written there already, not over it.
func TestWriteOutputDevStdout(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip(err)
	}
	p := filepath.Join(t.TempDir(), "out.txt")
	if os.Getenv("RUNDIR_CHILD") == "1" {
		return
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A child whose stdout is the file: it writes a line, then names
	// /dev/stdout as an output.
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteOutputDevStdoutChild$")
	cmd.Env = append(os.Environ(), "RUNDIR_CHILD=1")
	cmd.Stdout = f
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), "report text\n") || !strings.Contains(string(b), "<junit/>") {
		t.Errorf("the file holds %q, want the report text and then the JUnit", b)
	}
	if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the file was replaced: %v", err)
	}
}

func TestWriteOutputDevStdoutChild(t *testing.T) {
	if os.Getenv("RUNDIR_CHILD") != "1" {
		t.Skip("run by TestWriteOutputDevStdout")
	}
	os.Stdout.WriteString("report text\n")
	if err := WriteOutput(context.Background(), "/dev/stdout", nil, text("<junit/>")); err != nil {
		t.Fatal(err)
	}
}
