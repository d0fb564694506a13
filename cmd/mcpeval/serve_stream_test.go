package main

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sseEvent is one server-sent event's fields.
type sseEvent map[string]string

// readEvents reads the events of an event stream until it ends or n
// events were read.
func readEvents(t *testing.T, resp *http.Response, n int) []sseEvent {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	var events []sseEvent
	cur := sseEvent{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && len(events) < n {
		line := sc.Text()
		if line == "" {
			events = append(events, cur)
			cur = sseEvent{}
			continue
		}
		k, v, _ := strings.Cut(line, ":")
		cur[k] = strings.TrimPrefix(v, " ")
	}
	return events
}

// rawPost sends one JSON-RPC message to a served target as a client of
// protocol 2025-11-25 would.
func rawPost(t *testing.T, url, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestServeTargetPrimesAndResumesStreams calls a tool of a served target
// over streamable HTTP: the call's event stream opens with a priming
// event carrying an id and a retry time, and a GET naming that id in
// Last-Event-ID replays what followed it, the call's result.
func TestServeTargetPrimesAndResumesStreams(t *testing.T) {
	h, err := serveHandler(context.Background(), "household", false, false)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	defer ts.CloseClientConnections()
	init := rawPost(t, ts.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	readEvents(t, init, 1)
	if session == "" {
		t.Fatal("no session id")
	}
	rawPost(t, ts.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	events := readEvents(t, rawPost(t, ts.URL, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_accounts","arguments":{}}}`), 2)
	if len(events) == 0 {
		t.Fatal("the call's stream held no event")
	}
	prime := events[0]
	if prime["id"] == "" || strings.TrimSpace(prime["data"]) != "" {
		t.Fatalf("first event %v, want a priming event: an id and empty data", prime)
	}
	if prime["retry"] == "" {
		t.Errorf("priming event %v has no retry field", prime)
	}

	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", prime["id"])
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resuming after %s: %s", prime["id"], resp.Status)
	}
	replayed := readEvents(t, resp, 1)
	if len(replayed) == 0 || !strings.Contains(replayed[0]["data"], `"id":2`) {
		t.Errorf("resuming after %s replayed %v, want the call's result", prime["id"], replayed)
	}
}
