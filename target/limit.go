package target

import (
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxResponseBytes bounds one HTTP response body from a target, as the
// stdio transport bounds one message (mcp.DefaultMaxLineLength): a server
// answering with gigabytes fails the call instead of exhausting memory.
var MaxResponseBytes int64 = mcp.DefaultMaxLineLength

// limitedBody is a response body that fails once more than n bytes have
// been read from it.
type limitedBody struct {
	io.ReadCloser
	n int64
}

func limitBody(b io.ReadCloser, n int64) io.ReadCloser { return &limitedBody{b, n} }

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.n < 0 {
		return 0, fmt.Errorf("the target's response is longer than %d bytes", MaxResponseBytes)
	}
	if int64(len(p)) > b.n+1 {
		p = p[:b.n+1]
	}
	k, err := b.ReadCloser.Read(p)
	b.n -= int64(k)
	if b.n < 0 {
		return 0, fmt.Errorf("the target's response is longer than %d bytes", MaxResponseBytes)
	}
	return k, err
}
