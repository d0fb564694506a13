// Package household is the embedded household-finance MCP server that
// mcpeval evaluates by default (target builtin:household), and the synthetic
// household it serves.
//
// The household is data a person edits: fixture.yaml, embedded in the
// binary and read by [Fixture]. It is a fictional family's five accounts
// with twelve month-end balances each (October 2025 to September 2026),
// constant exchange rates into SGD, eight recurring monthly cashflow lines,
// an RSU grant and the brokerage account's monthly returns. The corpus in
// the suite beside it (suite/) computes every expected answer from the same file.
//
// [NewServer] serves it over MCP with the official go-sdk. Its read tools are
// annotated read-only; write tools (update_balance, add_cashflow) exist only
// when [Options.Writable] is set, and change only that server's copy.
//
// The server treats the fixture's as_of date (2026-09-30) as today: nothing
// it returns depends on the clock. The first RSU vest is on 2031-03-14, the
// day the fixture expires, so "the next vest" is the same vest whichever
// date a model believes it is until then.
package household
