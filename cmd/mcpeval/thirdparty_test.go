package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/npm"
)

// startEverything starts server-everything over streamable HTTP on a free
// loopback port and returns its base URL. The server gets no environment
// but PATH and PORT: its get-env tool prints whatever it has.
func startEverything(t *testing.T) string {
	t.Helper()
	entry := npm.Server(t, "server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + itoa(port)}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := "127.0.0.1:" + itoa(port)
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestEverythingOverHTTP runs examples/everything on the reference test
// server over streamable HTTP, behind a proxy that refuses any request
// without the bearer token: the token goes from the environment to every
// request, and into no file of the run, nor any output, after run, score
// and every report.
func TestEverythingOverHTTP(t *testing.T) {
	base := startEverything(t)
	var b [12]byte
	rand.Read(b[:])
	token := "evtok-" + hex.EncodeToString(b[:])
	t.Setenv("EVERYTHING_TOKEN", token)
	upstream, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	proxy.FlushInterval = -1 // server-sent events go through as they come
	var authorized, refused atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		authorized.Add(1)
		r.Header.Del("Authorization") // the server never sees it either
		proxy.ServeHTTP(w, r)
	}))
	defer ts.Close()
	suitePath := filepath.Join("..", "..", "examples", "everything")
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	var outputs bytes.Buffer
	cli := func(args ...string) int {
		var o, e bytes.Buffer
		code := Main(context.Background(), args, nil, &o, &e)
		outputs.Write(o.Bytes())
		outputs.Write(e.Bytes())
		if code != 0 {
			t.Logf("mcpeval %s: exit %d\n%s%s", strings.Join(args, " "), code, o.String(), e.String())
		}
		return code
	}

	// Without the header the proxy refuses, and nothing is asked.
	if code := cli("run", "--suite", suitePath, "--target", ts.URL+"/mcp", "--quiet", "--out", out+"-noauth"); code == 0 {
		t.Fatal("a run without the bearer token succeeded against a server that requires it")
	}
	if refused.Load() == 0 {
		t.Fatal("the proxy refused nothing: the run did not reach it")
	}

	s, code, stderr := runJSON(t, "run", "--suite", suitePath, "--target", ts.URL+"/mcp",
		"--target-header", "Authorization: Bearer ${EVERYTHING_TOKEN}", "--json", "--quiet", "--out", out)
	outputs.WriteString(stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Totals.Graded != 10 || s.Totals.Passed != 10 {
		t.Errorf("fake:perfect on server-everything: totals %+v, want 10 of 10 passed", s.Totals)
		for _, c := range s.Cases {
			for _, a := range c.Attempts {
				if a.Verdict != "pass" {
					t.Logf("  %s: %s %v", c.ID, a.Verdict, a.Reasons)
				}
			}
		}
	}
	if authorized.Load() == 0 {
		t.Error("no request carried the bearer token")
	}
	for _, args := range [][]string{
		{"score", out},
		{"report", out},
		{"report", "--markdown", out},
		{"report", "--json", out},
		{"report", "--junit", filepath.Join(dir, "junit.xml"), out},
		{"report", "--html", filepath.Join(dir, "report.html"), out},
	} {
		cli(args...)
	}
	if strings.Contains(outputs.String(), token) {
		t.Error("the bearer token is in mcpeval's output")
	}
	if files := noFileHolds(t, dir, token); files < 3 {
		t.Errorf("only %d files written: the check proves little", files)
	}
}

// TestFilesystemCLI runs examples/filesystem from the command line on the
// real server, in a copy of its own: the tool-call dataset (write tools
// included: nothing runs in a tool-call case) and then the whole suite,
// every case passing with fake:perfect, no warning, and nothing left in
// the scratch folder.
func TestFilesystemCLI(t *testing.T) {
	entry := npm.Server(t, "server-filesystem")
	suitePath := filepath.Join(t.TempDir(), "filesystem")
	if err := os.CopyFS(suitePath, os.DirFS(filepath.Join("..", "..", "examples", "filesystem"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(suitePath, "suite.yaml")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const installed = "../../.ci/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	if err := os.WriteFile(p, bytes.Replace(text, []byte(installed), []byte(entry), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s, code, stderr := runJSON(t, "run", "--suite", suitePath, "--dataset", "pr", "--attempts", "1", "--json", "--quiet", "--out", filepath.Join(dir, "pr"))
	if code != 0 || s.Totals.Graded == 0 || s.Totals.Passed != s.Totals.Graded {
		t.Errorf("the pr dataset: exit %d, totals %+v\n%s", code, s.Totals, stderr)
	}
	s, code, stderr = runJSON(t, "run", "--suite", suitePath, "--attempts", "1", "--json", "--quiet", "--out", filepath.Join(dir, "all"))
	if code != 0 || s.Totals.Graded != len(s.Cases) || s.Totals.Passed != s.Totals.Graded {
		t.Errorf("the whole suite: exit %d, totals %+v\n%s", code, s.Totals, stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("warnings: %s", stderr)
	}
	es, err := os.ReadDir(filepath.Join(suitePath, "data", "scratch"))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 {
		t.Errorf("the scratch folder holds %d entries after the run, want only its README", len(es))
	}
}
