// Command mcpeval measures how well AI models use the tools of an MCP
// server: it puts a corpus of questions to a model, lets the model call the
// server's tools over the real protocol, and grades every attempt with
// deterministic code against ground truth.
//
// Run `mcpeval help` for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once; the record is safe either way
	}()
	os.Exit(Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
