package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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
	if shared {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return first }, nil), nil
	}
	// A new session's first request asks for a server; the first is used
	// once, so that a bad target fails before anything is served.
	next := make(chan *mcp.Server, 1)
	next <- first
	return mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
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
	}, nil), nil
}
