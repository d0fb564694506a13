package specopt

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestClientKeepsItsConnections sends two waves of 32 requests at once, as
// a run at --concurrency 32 does each turn, through a provider's default
// client: the second wave must reuse the first's connections. With the
// standard library's pool (two idle connections a host) 30 of them were
// closed after each wave and dialled again, over TLS with a handshake each.
func TestClientKeepsItsConnections(t *testing.T) {
	const n = 32
	var dialled atomic.Int32
	var arrived sync.WaitGroup
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		<-release
		io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := Client(nil)
	defer c.CloseIdleConnections()
	for wave := range 2 {
		arrived.Add(n)
		release = make(chan struct{})
		var done sync.WaitGroup
		for range n {
			done.Go(func() {
				resp, err := c.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		arrived.Wait() // all n in flight at once
		close(release)
		done.Wait()
		if got := dialled.Load(); got != n {
			t.Fatalf("after wave %d: %d connections dialled, want %d (one per request in flight, kept)", wave+1, got, n)
		}
	}
}
