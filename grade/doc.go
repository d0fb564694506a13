// Package grade decides, for every attempt of a recorded run, whether the
// model did what its case asks. Grading is a pure function of the record
// and the suite: it calls no model, no MCP server and no network, so an old
// run can be graded again, byte for byte, against today's suite.
//
// Each case declares its checks, and an attempt passes when all of them
// pass:
//
//   - tools: the tools the case requires, accepts and forbids; calling a
//     write tool, or a tool the run did not show, fails outright.
//   - args: for each argument rule, some call of that tool satisfies it,
//     with an argument left out judged at the default of the tool's input
//     schema.
//   - figures: every expected figure is stated in the answer, within its
//     tolerance (see Match for the rounding rule).
//   - invented: on cases that ask for it, every money figure and
//     percentage in the answer is traceable to the attempt's tool results
//     (see Tracer).
//   - estimates: where a case allows labelled estimates, an untraceable
//     figure passes only inside a plainly labelled estimate.
//   - tool_errors: no call failed at the server (isError, or rejected)
//     on a tool the case does not list in expected_errors, even one the
//     model retried; a suite with tool_errors: note only counts them.
//   - decline: on questions the data cannot answer, the answer says so or
//     asks, and claims no action.
//
// An action case is graded by its action score (package actions), with
// what only the answer tells folded in: a decline must decline or ask and
// claim no action, and the case's answer check applies. That one verdict
// is both the attempt's grade and its row of the action columns.
//
// A tool-call case (mode: tool-call) asserts the first tool call only:
// its tool and the arguments the case lists.
//
// Every failed check gives a Reason a person can act on. Outcomes are kept
// apart: a fail is a wrong answer; an attempt that ended in an error is an
// error, counted on its own and left out of the pass rate; a run whose
// preflight found the data drifted is invalid and not graded at all.
package grade
