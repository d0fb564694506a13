#!/usr/bin/env bash
# The client side of the MCP conformance suite: the suite starts a server
# for a scenario and runs this with its URL as the last argument, the
# scenario's name in MCP_CONFORMANCE_SCENARIO and what the scenario gives
# the client (a client ID and secret, a private key) as JSON in
# MCP_CONFORMANCE_CONTEXT. mcpeval (MCPEVAL, a built binary) connects as it
# does in a run: `mcpeval tools` lists the tools, `mcpeval call` calls the
# one a scenario serves, an OAuth scenario is logged in to first by
# `mcpeval login`, with a browser (browser.sh) that follows the
# authorization server's redirects back to mcpeval, and a scenario that
# needs a suite's settings (an `oauth:` client, an `elicitation:` answer)
# gets a suite of its own, checked by `mcpeval validate` or run by
# `mcpeval run` with fake:perfect, which replays the case's key.
set -euo pipefail
url=${!#}
here=$(cd "$(dirname "$0")" && pwd)
# Each scenario logs in afresh: tokens are cached under a folder of its own.
tmp=$(mktemp -d)
export XDG_CONFIG_HOME="$tmp/config"
trap 'rm -rf "$tmp"' EXIT
export BROWSER="$here/browser.sh"

# ctx KEY: the scenario's context value KEY, as a JSON string (YAML reads
# it as the same string). Node runs the suite, so it is on PATH.
ctx() {
	node -e 'const v = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}")[process.argv[1]];
if (typeof v !== "string") { console.error("client.sh: the scenario context has no " + process.argv[1]); process.exit(1); }
console.log(JSON.stringify(v));' "$1"
}

# suite SETTINGS CASE: writes a suite whose target is the scenario's
# server, with SETTINGS (YAML lines) and one case, and prints its path.
# The scenarios' tools are not annotated read-only: allow_writes lets
# validate and run list and call them.
suite() {
	cat >"$tmp/suite.yaml" <<EOF
name: conformance
target:
  spec: "$url"
$1
allow_writes: true
attempts: 1
cases:
$2
EOF
	echo "$tmp/suite.yaml"
}
declined='  - {id: conformance/listed, prompt: List the tools., decline: true}'

case "${MCP_CONFORMANCE_SCENARIO:-}" in
auth/scope-step-up)
	# Listing needs one scope and calling another: the call is refused
	# with 403 insufficient_scope, and mcpeval names the login that asks
	# for the wider scope, which a person (here browser.sh) then grants.
	"$MCPEVAL" login --timeout 20s "$url"
	tool=$("$MCPEVAL" tools --json "$url" | node -e 'const d = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log((d.tools || d)[0].name)')
	if "$MCPEVAL" call "$url" "$tool" 2>"$tmp/refused"; then
		echo "client.sh: the call was not refused for its scope" >&2
		exit 1
	fi
	cat "$tmp/refused" >&2
	scope=$(sed -n 's/.*run mcpeval login --scope \([^ ]*\) .*/\1/p' "$tmp/refused")
	[ -n "$scope" ]
	"$MCPEVAL" login --timeout 20s --scope "$scope" "$url"
	"$MCPEVAL" call "$url" "$tool"
	;;
auth/basic-cimd)
	# The scenario's authorization server accepts this fixed metadata URL
	# as the client ID without fetching it.
	"$MCPEVAL" login --timeout 20s --client-metadata-url https://conformance-test.local/client-metadata.json "$url"
	"$MCPEVAL" tools "$url"
	;;
auth/pre-registration)
	# The secret is read from the environment, as a suite's should be.
	CLIENT_SECRET=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).client_secret)')
	export CLIENT_SECRET
	s=$(suite "  oauth: {flow: authorization_code, client_id: $(ctx client_id), client_secret: \"\${CLIENT_SECRET}\"}" "$declined")
	"$MCPEVAL" login --timeout 20s --suite "$s"
	"$MCPEVAL" validate "$s"
	;;
auth/client-credentials-basic)
	CLIENT_SECRET=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).client_secret)')
	export CLIENT_SECRET
	s=$(suite "  oauth: {client_id: $(ctx client_id), client_secret: \"\${CLIENT_SECRET}\"}" "$declined")
	"$MCPEVAL" validate "$s"
	;;
auth/client-credentials-jwt)
	node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).private_key_pem)' >"$tmp/client.pem"
	export CLIENT_KEY_FILE="$tmp/client.pem"
	s=$(suite "  oauth: {client_id: $(ctx client_id), private_key_file: \"\${CLIENT_KEY_FILE}\"}" "$declined")
	"$MCPEVAL" validate "$s"
	;;
auth/cross-app-access-complete-flow)
	# Enterprise Managed Authorization: the person's ID token (from the
	# scenario, as an identity provider's login would give it) is read
	# from the environment, never written in the suite.
	ID_TOKEN=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).idp_id_token)')
	CLIENT_SECRET=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).client_secret)')
	export ID_TOKEN CLIENT_SECRET
	s=$(suite "  oauth: {idp_issuer: $(ctx idp_issuer), idp_client_id: $(ctx idp_client_id), id_token_env: ID_TOKEN, client_id: $(ctx client_id), client_secret: \"\${CLIENT_SECRET}\"}" "$declined")
	"$MCPEVAL" validate "$s"
	;;
auth/*)
	"$MCPEVAL" login --timeout 20s "$url"
	"$MCPEVAL" tools "$url"
	;;
tools_call) "$MCPEVAL" call "$url" add_numbers '{"a": 2, "b": 3}' ;;
sse-retry) "$MCPEVAL" call "$url" test_reconnection ;;
elicitation-sep1034-client-defaults)
	# The tool asks for a form whose every field has a default; accepted
	# with no content, mcpeval submits the defaults (SEP-1034).
	s=$(suite "elicitation: {action: accept}" "  - id: conformance/defaults
    prompt: Fill in the server's form with its defaults.
    tools: {required: [test_client_elicitation_defaults]}
    answer: {contains: [completed]}
    key:
      calls: [{tool: test_client_elicitation_defaults, args: {}}]
      answer: The elicitation completed.")
	"$MCPEVAL" run --suite "$s" --model fake:perfect --quiet --out "$tmp/run"
	;;
*) "$MCPEVAL" tools "$url" ;;
esac
