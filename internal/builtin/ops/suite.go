package ops

import (
	"embed"
	"io/fs"

	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"
)

//go:embed all:suite
var suiteFiles embed.FS

// Suite returns the files of the suite written for this server, the suite
// directory beside it, as the root of a file system.
func Suite() fs.FS { return mcpserver.Suite(suiteFiles, "suite") }
