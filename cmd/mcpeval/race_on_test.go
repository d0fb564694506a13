//go:build race

package main

// raceDetector is true in a binary built with -race, whose memory the
// detector's shadow state multiplies: peak-memory figures mean nothing
// there.
const raceDetector = true
