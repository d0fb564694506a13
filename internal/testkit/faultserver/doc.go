// Package faultserver is an MCP server for tests that fails on a schedule.
//
// Started as a stdio command, it serves a few tools of its own (or, with
// -serve NAME, an embedded target's tools) and, counting the tool calls it
// receives from 1, crashes on the Nth (-crash-on N), never answers it
// (-hang-on N), or writes a line that is not JSON on stdout in its place
// (-garbage-on N); it can delay every call (-delay), refuse to start
// (-fail-start), and flood its stderr (-stderr-bytes, and the flood tool).
// Counts are per process: a server restarted after a crash counts anew.
//
// Tests run it from their own test binary: call RunIfChild first thing in
// TestMain, and start it with Target (for package tests) or register Main
// as a testscript command.
package faultserver
