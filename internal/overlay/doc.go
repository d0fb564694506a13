// Package overlay reads description overlays: YAML files a person writes
// to replace the descriptions the model is shown (a tool's description and
// its parameters' descriptions) without touching the server.
//
//	# overlay.yaml: try clearer month wording before shipping it
//	tools:
//	  get_net_worth_history:
//	    description: Net worth at the end of each month, oldest first.
//	    params:
//	      months: How many month-ends to return, counting back from 2026-09.
//
// This is how a team tries a description edit before shipping it: run the
// suite with and without the overlay and compare the runs. Apply checks
// every tool and parameter the overlay names against the tools the target
// lists, and reports each unknown one as file:line. Only descriptions
// change: a parameter's description is set at properties.<param>.description
// of the tool's JSON input schema, and nothing else in the schema moves.
//
// The same file may rewrite what tools return (outputs:), so that a
// response format can be tried on every model before the server changes:
//
//	outputs:
//	  get_net_worth:
//	    rename: {net_worth_sgd: total}   # a key renamed in place
//	    drop: [account_count]            # paths removed
//	    limit: {accounts: 3}             # lists cut to their first N items
//	    units: {total: SGD}              # 2394755 becomes "2394755 SGD"
//	    keep: [total, as_of]             # only these top-level keys, in this order
//	    text: "Net worth {total} on {as_of}"  # the text shown; {$text} is the server's
//
// The runner calls Rewrite on each result before the model sees it, and
// the record keeps the server's result beside the one shown.
package overlay
