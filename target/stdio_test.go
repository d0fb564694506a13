//go:build unix

package target_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childVar makes the test binary run as one of the test servers below
// instead of the tests.
const childVar = "MCPEVAL_TARGET_TEST_CHILD"

func TestMain(m *testing.M) {
	faultserver.RunIfChild()
	switch os.Getenv(childVar) {
	case "envdump":
		// Write the environment to the file named, then serve.
		os.WriteFile(os.Getenv("ENVDUMP_FILE"), []byte(strings.Join(os.Environ(), "\n")), 0o644)
		os.Exit(faultserver.Main(nil, os.Stdin, os.Stdout, os.Stderr))
	case "silent":
		// Ignore SIGTERM, start a child, note the pid, read stdin and
		// never answer, not even after EOF.
		signal.Ignore(syscall.SIGTERM)
		exec.Command("sleep", "300").Start()
		os.WriteFile(os.Getenv("PID_FILE"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		io.Copy(io.Discard, os.Stdin)
		select {}
	case "parent":
		// Play mcpeval: start a server, note its pid, wait to be killed.
		exe, _ := os.Executable()
		c, err := target.Dial(context.Background(), target.Config{Spec: "stdio:'" + exe + "'", Env: map[string]string{childVar: "stubborn"}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.WriteFile(os.Getenv("PID_FILE"), []byte(strconv.Itoa(c.Pid())), 0o644)
		select {}
	case "stubborn":
		// Serve, and outlive stdin's end and SIGTERM.
		signal.Ignore(syscall.SIGTERM)
		faultserver.Main(nil, os.Stdin, os.Stdout, os.Stderr)
		select {}
	case "listhang":
		// Answer initialize, never tools/list; START_DELAY, when set,
		// starts it that late, as a loaded machine does.
		if d, err := time.ParseDuration(os.Getenv("START_DELAY")); err == nil {
			time.Sleep(d)
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "listhang", Version: "1"}, nil)
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/list" {
					// Until the client gives up: then the server may
					// exit once its stdin closes.
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return next(ctx, method, req)
			}
		})
		s.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// self returns a stdio target that starts the test binary in mode.
func self(t *testing.T, mode string, env map[string]string) target.Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{childVar: mode}
	for k, v := range env {
		e[k] = v
	}
	return target.Config{Spec: "stdio:'" + exe + "'", Env: e}
}

// TestStdioEnvironment starts a server that dumps its environment, with
// provider keys and a CI token in mcpeval's: none reaches the server
// unless InheritEnv says so; PATH, HOME, the locale and what Env names do.
func TestStdioEnvironment(t *testing.T) {
	secrets := map[string]string{
		"ANTHROPIC_API_KEY": "sk-ant-api03-PLANTED-0000000000",
		"OPENAI_API_KEY":    "sk-proj-PLANTED-11111111111111",
		"GITHUB_TOKEN":      "ghs_PLANTED2222222222",
		"UNRELATED_SETTING": "PLANTED-unrelated",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("LC_TIME", "C")
	t.Setenv("SERVER_TOKEN_SOURCE", "server-token-PLANTED-3333")
	for _, inherit := range []bool{false, true} {
		t.Run(fmt.Sprintf("inherit=%v", inherit), func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "env")
			cfg := self(t, "envdump", map[string]string{"ENVDUMP_FILE": dump, "SERVER_TOKEN": "${SERVER_TOKEN_SOURCE}"})
			cfg.InheritEnv = inherit
			c, err := target.Dial(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
			data, err := os.ReadFile(dump)
			if err != nil {
				t.Fatal(err)
			}
			env := map[string]string{}
			for _, kv := range strings.Split(string(data), "\n") {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			for k, v := range secrets {
				if got, ok := env[k]; ok != inherit || (inherit && got != v) {
					t.Errorf("%s reached the server: %v (want %v)", k, ok, inherit)
				}
			}
			want := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "LC_TIME": "C", "SERVER_TOKEN": "server-token-PLANTED-3333"}
			for k, v := range want {
				if env[k] != v {
					t.Errorf("the server got %s=%q, want %q", k, env[k], v)
				}
			}
			if !inherit && len(env) > 12 {
				t.Errorf("the server got %d variables, more than the minimal set: %v", len(env), env)
			}
		})
	}
}

// TestConnectTimeout connects to a server that never answers initialize,
// and to one that never answers tools/list: each fails once the connect
// timeout has passed, not before, naming the step that stalled. A server
// that starts late, as on a loaded machine, is dialled again with a
// longer timeout rather than failing the test: the timeout is asserted
// as a lower bound, never raced.
func TestConnectTimeout(t *testing.T) {
	// ctx only keeps a broken timeout from hanging the test: a stall it
	// ends is not a StalledError.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := self(t, "silent", map[string]string{"PID_FILE": pidFile})
	cfg.ConnectTimeout = 300 * time.Millisecond
	start := time.Now()
	_, err := target.Dial(ctx, cfg)
	var stalled *target.StalledError
	if !errors.As(err, &stalled) || stalled.Step != "initialize" || !strings.Contains(err.Error(), "did not answer initialize within 300ms") {
		t.Fatalf("Dial = %v, want a stall in initialize", err)
	}
	if d := time.Since(start); d < cfg.ConnectTimeout {
		t.Errorf("Dial gave up after %s, before the connect timeout of %s", d, cfg.ConnectTimeout)
	}

	for _, delay := range []string{"0s", "400ms"} {
		t.Run("tools/list, started "+delay+" late", func(t *testing.T) {
			c, timeout := dialWithin(ctx, t, self(t, "listhang", map[string]string{"START_DELAY": delay}))
			t.Logf("dialled within %s", timeout)
			defer c.Close()
			start := time.Now()
			_, err := c.Tools(ctx)
			if !errors.As(err, &stalled) || stalled.Step != "tools/list" || stalled.After != timeout || !strings.Contains(err.Error(), "tools/list") {
				t.Fatalf("Tools = %v, want a stall in tools/list after %s", err, timeout)
			}
			if d := time.Since(start); d < timeout {
				t.Errorf("Tools gave up after %s, before the connect timeout of %s", d, timeout)
			}
		})
	}
}

// dialWithin dials cfg with a connect timeout of 300 ms, and again with
// longer ones while the server has not answered initialize in time, and
// returns the connection and the timeout it was dialled with.
func dialWithin(ctx context.Context, t *testing.T, cfg target.Config) (*target.Conn, time.Duration) {
	t.Helper()
	var err error
	for _, d := range []time.Duration{300 * time.Millisecond, time.Second, 3 * time.Second, 10 * time.Second} {
		cfg.ConnectTimeout = d
		var c *target.Conn
		if c, err = target.Dial(ctx, cfg); err == nil {
			return c, d
		}
		var stalled *target.StalledError
		if !errors.As(err, &stalled) || stalled.Step != "initialize" {
			t.Fatalf("Dial = %v, want a connection or a stall in initialize", err)
		}
	}
	t.Fatalf("the server never answered initialize: %v", err)
	return nil, 0
}

// TestCloseStopsProcessGroup starts servers that spawn a child, one of
// which ignores SIGTERM and never answers: once the connection is closed
// (or fails), no process of the server's group remains.
func TestCloseStopsProcessGroup(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A wrapper that leaves a child behind, then becomes the server.
	cfg := target.Config{
		Spec: "stdio:sh -c 'sleep 300 & exec \"$0\"' '" + exe + "'",
		Env:  map[string]string{faultserver.EnvVar: "1"},
	}
	c, err := target.Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	pgid := c.Pid()
	if !groupAlive(pgid) {
		t.Fatal("the server's group is not running")
	}
	c.Close()
	waitGroupGone(t, pgid)

	// A server that ignores SIGTERM and never answers, with a child.
	pidFile := filepath.Join(t.TempDir(), "pid")
	silent := self(t, "silent", map[string]string{"PID_FILE": pidFile})
	silent.ConnectTimeout = 200 * time.Millisecond
	if _, err := target.Dial(context.Background(), silent); err == nil {
		t.Fatal("Dial of a silent server succeeded")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	waitGroupGone(t, pid)
}

func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !groupAlive(pgid) {
			return
		}
	}
	t.Errorf("process group %d still has live processes after Close", pgid)
}

// groupAlive reports whether a process of group pgid is running: kill(-pgid,
// 0) says whether any exists; on Linux, members that have exited but are
// not yet reaped by their new parent (zombies) do not count.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if runtime.GOOS != "linux" {
		return true
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		i := strings.LastIndexByte(string(data), ')')
		f := strings.Fields(string(data[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}

// TestServerDiesWithMcpeval kills a process playing mcpeval with SIGKILL,
// so that it closes nothing: on Linux its stdio server goes too, though
// it outlives the end of its stdin and ignores SIGTERM.
func TestServerDiesWithMcpeval(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux's; elsewhere the server sees its stdin close")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	parent := exec.Command(exe)
	parent.Env = append(os.Environ(), childVar+"=parent", "PID_FILE="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(string(data))
	}
	if pid == 0 {
		parent.Process.Kill()
		t.Fatal("the parent never started its server")
	}
	parent.Process.Kill()
	parent.Wait()
	waitGroupGone(t, pid)
}

// TestStderrScrubbed starts a server with the whole environment that
// fails, printing a provider key and its own --password argument on
// stderr: neither is in the error Dial returns.
func TestStderrScrubbed(t *testing.T) {
	t.Setenv("GROQ_API_KEY", "groq-PLANTED-stderr-0000")
	cfg := target.Config{Spec: `stdio:sh -c 'echo "key $GROQ_API_KEY pw $2" >&2; exit 1' srv --password Hunter2Secret99`, InheritEnv: true}
	_, err := target.Dial(context.Background(), cfg)
	var se *target.StderrError
	if !errors.As(err, &se) || len(se.Stderr) == 0 {
		t.Fatalf("Dial = %v, want the server's stderr", err)
	}
	if strings.Contains(err.Error(), "PLANTED") || strings.Contains(err.Error(), "Hunter2Secret99") || !strings.Contains(err.Error(), "key [redacted:secret] pw [redacted:secret]") {
		t.Errorf("Dial = %v", err)
	}
}
