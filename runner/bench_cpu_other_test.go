//go:build !unix

package runner

import "time"

// processCPU cannot be read here: benchmarks report wall time only.
func processCPU() (time.Duration, bool) { return 0, false }
