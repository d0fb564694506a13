//go:build !linux

package main

import (
	"errors"
	"time"
)

func runTree([]string, time.Duration) (treeUsage, error) {
	return treeUsage{}, errors.New("measuring a process tree needs Linux (/proc and a child subreaper)")
}
