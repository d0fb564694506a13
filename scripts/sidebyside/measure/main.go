// Command measure is the side-by-side harness's meter
// (scripts/sidebyside/run.sh).
//
//	measure run -results FILE -tool NAME -samples N -round K [-stats URL] -- CMD [ARG...]
//
// runs CMD as the root of a process tree it owns: it is the tree's child
// subreaper, so a process whose parent exits first (an MCP server a tool
// left running) is handed to it and waited for, and it waits for every
// process of the tree, not only CMD. It then appends one JSON line to FILE
// (a Run): the wall time from start to the last process's exit, the CPU
// time (user and system) of every process of the tree, the peak of the
// tree's summed resident set (sampled every -every) and the largest
// resident set of any one process (the kernel's own peak), the model
// requests the stand-in at -stats counted meanwhile, and the 1-minute load
// average when it started. It exits with CMD's status.
//
//	measure report [-json] [-concurrency 32] [-latency 0.5s] [-turns 2] FILE
//
// prints the runs of FILE as tables: each run with its load average and
// its wall time against the bound ceil(samples/concurrency) × turns ×
// latency; each tool and size over the rounds, min, median and max; and
// each tool's marginal CPU per model request, the slope of a round's CPU
// time over its model requests across the sizes, min, median and max over
// the rounds. With -json it prints the same as one JSON object.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	code, err := measure(os.Stdout, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		if code == 0 {
			code = 2
		}
	}
	os.Exit(code)
}

func measure(w io.Writer, args []string) (int, error) {
	if len(args) == 0 {
		return 2, fmt.Errorf("usage: measure run|report")
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:])
	case "report":
		return 0, reportCmd(w, args[1:])
	}
	return 2, fmt.Errorf("unknown command %q (run or report)", args[0])
}
