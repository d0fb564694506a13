// Package audit checks an action corpus against the target it is written
// for, as ordinary tests and as mcpeval coverage do:
//
//   - Leaks: a prompt never names its own answer: its tools, any tool of
//     the target, or any argument of its tools, as written or as the
//     phrase it reads as ("display name" for displayName). Exceptions are
//     written down in the suite, each with its reason.
//   - Key: every step names a tool the target lists, every argument it
//     gives is in that tool's input schema, and the call a correct agent
//     would make validates against it; all problems come back located.
//   - CoverageOf: every tool and every argument of the target is exercised
//     by some case, or listed as deliberately uncovered with its reason.
//
// The tool list is the live one (runner.Validate gives it); the package
// itself calls nothing.
package audit
