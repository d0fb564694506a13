package target

import (
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewCommandTransport is the stdio transport Dial uses, for the benchmark
// that sets it beside the go-sdk's.
func NewCommandTransport(cmd *exec.Cmd, terminate time.Duration) mcp.Transport {
	return &commandTransport{cmd: cmd, terminate: terminate}
}
