package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverGCPercent and serverHeapLimit are serve-target's garbage
// collector settings, unless the environment sets its own (GOGC,
// GOMEMLIMIT). A served target holds little (its fixture's state) and
// allocates much for each call, nearly all of it inside the go-sdk
// (a fresh 32 KiB buffer for each value it decodes; see
// docs/performance.md), so at the runtime's default the collector ran
// every few calls and was a third of the server's CPU. Collecting when
// the heap has grown to five times what is live, and at the latest at
// the limit, took BenchmarkServeTargetCall's server CPU a call from
// 858 to 600 µs (-30%, p<0.001, n=8) for 12.5 MiB more at its peak
// (67.0 to 79.5 MiB, most of it the executable's pages); GOGC=200 gave
// -19% for 4.5 MiB.
const (
	serverGCPercent = 400
	serverHeapLimit = 64 << 20
)

// serverGC applies serve-target's collector settings and returns the
// function that puts the previous ones back.
func serverGC() (restore func()) {
	restoreGC, restoreLimit := func() {}, func() {}
	if os.Getenv("GOGC") == "" {
		prev := debug.SetGCPercent(serverGCPercent)
		restoreGC = func() { debug.SetGCPercent(prev) }
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		prev := debug.SetMemoryLimit(serverHeapLimit)
		restoreLimit = func() { debug.SetMemoryLimit(prev) }
	}
	return func() { restoreGC(); restoreLimit() }
}

// servedServer returns a fresh server of the embedded target name as
// serve-target exposes it: without writable, the read-only view (every
// tool not annotated read-only is removed, whatever the target itself
// would serve an evaluation).
func servedServer(ctx context.Context, name string, writable bool) (*mcp.Server, error) {
	s, err := builtin.Server(name, writable)
	if err != nil || writable {
		return s, err
	}
	if err := readOnlyView(ctx, s); err != nil {
		return nil, fmt.Errorf("serving %s read-only: %w", name, err)
	}
	return s, nil
}

// readOnlyView removes from s every tool that is not annotated read-only,
// as a client listing them would see them.
func readOnlyView(ctx context.Context, s *mcp.Server) error {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpeval-serve", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	var writes []string
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if t.Annotations == nil || !t.Annotations.ReadOnlyHint {
			writes = append(writes, t.Name)
		}
	}
	s.RemoveTools(writes...)
	return nil
}

// serveHandler serves the embedded target name over streamable HTTP: each
// session gets a server of its own, with its own state, unless shared
// says every session shares one (a deletion in one is then seen by all).
func serveHandler(ctx context.Context, name string, writable, shared bool) (http.Handler, error) {
	first, err := servedServer(ctx, name, writable)
	if err != nil {
		return nil, err
	}
	// Every event stream is kept until its session ends, so a client whose
	// stream dropped resumes it with Last-Event-ID; each opens with a
	// priming event and a retry time (SEP-1699).
	opts := &mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}
	if shared {
		return withRetry(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return first }, opts)), nil
	}
	// A new session's first request asks for a server; the first is used
	// once, so that a bad target fails before anything is served.
	next := make(chan *mcp.Server, 1)
	next <- first
	return withRetry(mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		select {
		case s := <-next:
			return s
		default:
		}
		s, err := servedServer(r.Context(), name, writable)
		if err != nil {
			return nil
		}
		return s
	}, opts)), nil
}

// streamRetry is the time a client whose event stream dropped is asked to
// wait before resuming it.
const streamRetry = time.Second

// withRetry has every event stream h serves state streamRetry in its first
// event: the go-sdk primes a stream with an event id but names no retry
// time unless a handler closes the stream itself.
func withRetry(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&retryWriter{ResponseWriter: w}, r)
	})
}

// retryWriter writes a retry field before the first bytes of an event
// stream.
type retryWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *retryWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.wrote = true
		if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
			if _, err := fmt.Fprintf(w.ResponseWriter, "retry: %d\n", streamRetry.Milliseconds()); err != nil {
				return 0, err
			}
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the stream underneath.
func (w *retryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
