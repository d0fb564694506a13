package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// straggle is how long the processes of the tree may outlive its root
// before they are killed.
const straggle = 10 * time.Second

// runTree runs argv as this process's child and waits for it and for
// every process of its tree, this process being their subreaper; it
// samples the tree's resident sets every so often. Wall time runs to the
// root's exit.
func runTree(argv []string, every time.Duration) (treeUsage, error) {
	var u treeUsage
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return u, fmt.Errorf("becoming the tree's subreaper: %w", e)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return u, err
	}
	stop := make(chan struct{})
	peak := make(chan int64)
	start := time.Now()
	p, err := os.StartProcess(path, argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		return u, err
	}
	go func() { peak <- sampleTree(os.Getpid(), every, stop) }()
	var kill *time.Timer
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.ECHILD) {
			break
		}
		if err != nil {
			return u, fmt.Errorf("waiting for the tree: %w", err)
		}
		u.processes++
		if pid == p.Pid {
			u.wall = time.Since(start)
			u.exit = ws.ExitStatus()
			if ws.Signaled() {
				u.exit = 128 + int(ws.Signal())
			}
			kill = time.AfterFunc(straggle, func() {
				for _, q := range tree(os.Getpid()) {
					syscall.Kill(q, syscall.SIGKILL)
				}
			})
		}
	}
	if kill != nil {
		kill.Stop()
	}
	close(stop)
	u.peakTree = <-peak
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return u, fmt.Errorf("reading the tree's usage: %w", err)
	}
	u.user = time.Duration(ru.Utime.Nano())
	u.sys = time.Duration(ru.Stime.Nano())
	u.peakProc = ru.Maxrss // KiB on Linux
	return u, nil
}

// sampleTree sums the resident sets of root's descendants every so often
// until stop is closed, and returns the largest sum in KiB.
func sampleTree(root int, every time.Duration, stop <-chan struct{}) int64 {
	page := int64(os.Getpagesize()) / 1024
	var top int64
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		var sum int64
		for _, pid := range tree(root) {
			sum += rssPages(pid) * page
		}
		top = max(top, sum)
		select {
		case <-stop:
			return top
		case <-t.C:
		}
	}
}

// tree lists the descendants of pid, read from /proc's children files
// (a thread's children are listed under that thread).
func tree(pid int) []int {
	var out []int
	queue := children(pid)
	for len(queue) > 0 {
		q := queue[0]
		queue = append(queue[1:], children(q)...)
		out = append(out, q)
	}
	return out
}

func children(pid int) []int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(w); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// rssPages is pid's resident set in pages; 0 once it has gone.
func rssPages(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n
}
