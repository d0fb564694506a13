#!/usr/bin/env bash
# The client side of the MCP conformance suite: the suite starts a server
# for a scenario and runs this with its URL as the last argument and the
# scenario's name in MCP_CONFORMANCE_SCENARIO. mcpeval (MCPEVAL, a built
# binary) connects as it does in a run: `mcpeval tools` lists the tools,
# `mcpeval call` calls the one a scenario serves, and an OAuth scenario is
# logged in to first by `mcpeval login`, with a browser (browser.sh) that
# follows the authorization server's redirects back to mcpeval.
set -euo pipefail
url=${!#}
here=$(cd "$(dirname "$0")" && pwd)
# Each scenario logs in afresh: tokens are cached under a folder of its own.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
case "${MCP_CONFORMANCE_SCENARIO:-}" in
auth/*)
	BROWSER="$here/browser.sh" "$MCPEVAL" login --timeout 20s "$url"
	"$MCPEVAL" tools "$url"
	;;
tools_call) "$MCPEVAL" call "$url" add_numbers '{"a": 2, "b": 3}' ;;
sse-retry) "$MCPEVAL" call "$url" test_reconnection ;;
elicitation-sep1034-client-defaults) "$MCPEVAL" call "$url" test_client_elicitation_defaults ;;
*) "$MCPEVAL" tools "$url" ;;
esac
