package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// commandTransport runs a stdio server and speaks MCP over its stdin and
// stdout, as mcp.CommandTransport does, and closes it the same way:
// closing its stdin, then SIGTERM after terminate, then SIGKILL. It differs
// in reading: each message is read by one streaming decoder whose buffer is
// kept from message to message and decoded in place (decodeMessage), where
// the go-sdk's connection decodes every message it reads twice more, with
// a fresh 32 KiB buffer each time (docs/performance.md, "CPU per turn").
type commandTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration
	// maxFrame bounds one message read (mcp.DefaultMaxLineLength when 0).
	maxFrame int64
	// unwatch stops the watcher of the server's process group (see
	// watchGroup) once the server is closed; set by Connect.
	unwatch func()
}

// Connect starts the command.
func (t *commandTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	t.unwatch = watchGroup(t.cmd.Process.Pid)
	limit := t.maxFrame
	if limit <= 0 {
		limit = mcp.DefaultMaxLineLength
	}
	c := &streamConn{w: stdin, incoming: make(chan decoded), closed: make(chan struct{}),
		closeFn: func() error { return t.stop(stdin) }}
	go c.read(&frameLimit{r: stdout, limit: limit})
	return c, nil
}

// NewStdioServerTransport returns the transport a server speaks MCP over
// on in and out (its standard input and output), one message a line, as
// mcp.StdioTransport does, but read as the command transport reads: by one
// streaming decoder, each message decoded in place (decodeMessage) where
// the go-sdk's connection decodes each one three times with a fresh
// 32 KiB buffer every time (docs/performance.md, "CPU per turn"). The
// connection ends when in does (the client closed it); closing the
// connection closes in. Batches are refused.
func NewStdioServerTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	return &stdioServerTransport{in: in, out: out}
}

type stdioServerTransport struct {
	in  io.ReadCloser
	out io.Writer
}

// Connect starts reading in.
func (t *stdioServerTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &streamConn{w: t.out, incoming: make(chan decoded), closed: make(chan struct{}), closeFn: t.in.Close}
	go c.read(&frameLimit{r: t.in, limit: mcp.DefaultMaxLineLength})
	return c, nil
}

// stop ends the server as the MCP specification asks of a stdio client:
// close its input, wait for it to exit, then SIGTERM, then SIGKILL.
func (t *commandTransport) stop(stdin io.Closer) error {
	if err := stdin.Close(); err != nil {
		return fmt.Errorf("closing the server's stdin: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- t.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(t.terminate):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if err := t.cmd.Process.Signal(syscall.SIGTERM); err == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := t.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("the server did not exit after SIGKILL")
}

// decoded is a message read, or why reading stopped.
type decoded struct {
	msg jsonrpc.Message
	err error
}

// streamConn is an mcp.Connection over a stream of JSON-RPC messages, one
// a line.
type streamConn struct {
	w        io.Writer
	writeMu  sync.Mutex
	incoming chan decoded
	closed   chan struct{}
	once     sync.Once
	closeErr error
	closeFn  func() error
}

// read decodes messages from r until it fails or the connection closes;
// it runs in its own goroutine so that Close can end a Read at once.
func (c *streamConn) read(r *frameLimit) {
	dec := json.NewDecoder(r)
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		var d decoded
		switch {
		case err != nil:
			d.err = err
		case len(raw) > 0 && raw[0] == '[':
			d.err = errors.New("a JSON-RPC batch: MCP has no batches since 2025-06-18")
		default:
			d.err = trailing(dec)
			if d.err == nil {
				d.msg, d.err = decodeMessage(raw)
			}
		}
		select {
		case c.incoming <- d:
		case <-c.closed:
			return
		}
		if d.err != nil {
			return
		}
		r.next()
	}
}

// trailing reports what follows a message on its line that is not its
// newline, as the go-sdk's own stdio connection does.
func trailing(dec *json.Decoder) error {
	var b [1]byte
	if n, _ := dec.Buffered().Read(b[:]); n > 0 && b[0] != '\n' && b[0] != '\r' {
		return errors.New("invalid trailing data after a message")
	}
	return nil
}

// Read returns the next message.
func (c *streamConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case d := <-c.incoming:
		return d.msg, d.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write sends msg on a line of its own.
func (c *streamConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// Close stops the server, once.
func (c *streamConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.closeErr = c.closeFn()
	})
	return c.closeErr
}

// SessionID is empty: stdio has no session id.
func (c *streamConn) SessionID() string { return "" }

// frameLimit fails a read once one message has taken more than limit
// bytes, so that a server writing gigabytes without a newline fails the
// connection instead of exhausting memory.
type frameLimit struct {
	r     io.Reader
	limit int64
	n     int64
}

func (f *frameLimit) Read(p []byte) (int, error) {
	if f.n >= f.limit {
		return 0, fmt.Errorf("a message from the server is longer than %d bytes", f.limit)
	}
	if int64(len(p)) > f.limit-f.n {
		p = p[:f.limit-f.n]
	}
	k, err := f.r.Read(p)
	f.n += int64(k)
	return k, err
}

// next starts counting a new message. Bytes read ahead for the next
// message count towards it: a bound, not an exact size.
func (f *frameLimit) next() { f.n = 0 }
