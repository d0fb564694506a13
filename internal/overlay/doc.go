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
package overlay
