package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestView serves a run made by mcpeval run, graded with its embedded
// suite, and stops when its context ends; an address other than loopback
// gets a warning.
func TestView(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--suite", "household", "--model", "fake:invent", "--out", filepath.Join(dir, "invent"), "--quiet"}, nil, &out, &errb); code != 0 && code != 1 {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		var stderr bytes.Buffer
		done := make(chan int)
		go func() {
			done <- Main(ctx, []string{"view", "--addr", tc.addr, dir}, nil, pw, &stderr)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil {
			t.Fatalf("reading the address: %v", err)
		}
		go io.Copy(io.Discard, pr)
		url := strings.Fields(strings.TrimPrefix(line, "mcpeval view: "))[0]
		if tc.addr == "127.0.0.1:0" && !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("view serves %s", url)
		}
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "household") || !strings.Contains(string(body), "fake:invent") {
			t.Errorf("GET %s: %d\n%s", url, resp.StatusCode, body)
		}
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("view exited %d: %s", code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("view did not stop when its context ended")
		}
		if got := strings.Contains(stderr.String(), "warning: listening on"); got != tc.warn {
			t.Errorf("--addr %s: warning %v, want %v (stderr %q)", tc.addr, got, tc.warn, stderr.String())
		}
	}
}
