package ops

import (
	"embed"
	"io/fs"
)

//go:embed all:suite
var suiteFiles embed.FS

// Suite returns the files of the suite written for this server, the suite
// directory beside it, as the root of a file system.
func Suite() fs.FS {
	f, err := fs.Sub(suiteFiles, "suite")
	if err != nil {
		panic(err) // the directory is embedded: it is there
	}
	return f
}
