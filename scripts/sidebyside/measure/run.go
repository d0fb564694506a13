package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Run is one measured run of a tool, a line of the results file.
type Run struct {
	Tool    string `json:"tool"`
	Samples int    `json:"samples"`
	Round   int    `json:"round"`
	// Load1 is the 1-minute load average when the run started.
	Load1 float64 `json:"load1"`
	WallS float64 `json:"wall_s"`
	UserS float64 `json:"user_s"`
	SysS  float64 `json:"sys_s"`
	// CPUS is UserS + SysS: every process of the tree.
	CPUS float64 `json:"cpu_s"`
	// PeakTreeKiB is the largest sum of the tree's resident sets among
	// the samples taken.
	PeakTreeKiB int64 `json:"peak_tree_kib"`
	// PeakProcKiB is the largest peak resident set of one process of the
	// tree (the kernel's maxrss).
	PeakProcKiB int64 `json:"peak_proc_kib"`
	// Processes counts the processes of the tree waited for.
	Processes int `json:"processes"`
	// Requests counts the model requests the stand-in answered during the
	// run; -1 when not asked.
	Requests int `json:"requests"`
	Exit     int `json:"exit"`
}

// treeUsage is what a process tree used.
type treeUsage struct {
	wall            time.Duration
	user, sys       time.Duration
	peakTree        int64 // KiB
	peakProc        int64 // KiB
	processes, exit int
}

func runCmd(args []string) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	results := fs.String("results", "", "append the run's JSON line to `FILE`")
	tool := fs.String("tool", "", "the tool's name in the results")
	samples := fs.Int("samples", 0, "the run's samples (attempts)")
	round := fs.Int("round", 0, "the round the run belongs to")
	stats := fs.String("stats", "", "the stand-in's stats `URL`, read before and after the run")
	every := fs.Duration("every", 50*time.Millisecond, "how often the tree's resident sets are sampled")
	if err := fs.Parse(args); err != nil {
		return 2, err
	}
	if *results == "" || *tool == "" || fs.NArg() == 0 {
		return 2, errors.New("run: -results, -tool and a command are required")
	}
	r := Run{Tool: *tool, Samples: *samples, Round: *round, Requests: -1}
	r.Load1 = load1()
	before := 0
	if *stats != "" {
		n, err := requests(*stats)
		if err != nil {
			return 2, err
		}
		before = n
	}
	u, err := runTree(fs.Args(), *every)
	if err != nil {
		return 2, fmt.Errorf("running %s: %w", fs.Arg(0), err)
	}
	if *stats != "" {
		n, err := requests(*stats)
		if err != nil {
			return 2, err
		}
		r.Requests = n - before
	}
	r.WallS = u.wall.Seconds()
	r.UserS, r.SysS = u.user.Seconds(), u.sys.Seconds()
	r.CPUS = r.UserS + r.SysS
	r.PeakTreeKiB, r.PeakProcKiB = u.peakTree, u.peakProc
	r.Processes, r.Exit = u.processes, u.exit
	line, _ := json.Marshal(r)
	f, err := os.OpenFile(*results, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 2, fmt.Errorf("opening the results: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return 2, fmt.Errorf("writing the results: %w", err)
	}
	if err := f.Close(); err != nil {
		return 2, fmt.Errorf("writing the results: %w", err)
	}
	return u.exit, nil
}

// load1 is the 1-minute load average, or -1 when it cannot be read.
func load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// requests reads the stand-in's count of model requests.
func requests(url string) (int, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, fmt.Errorf("reading the stand-in's stats: %w", err)
	}
	defer resp.Body.Close()
	var s struct {
		Requests *int `json:"requests"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || s.Requests == nil {
		return 0, fmt.Errorf("reading the stand-in's stats: no request count (%v)", err)
	}
	return *s.Requests, nil
}
