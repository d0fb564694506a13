//go:build !race

package main

// raceDetector is true in a binary built with -race (see race_on_test.go).
const raceDetector = false
