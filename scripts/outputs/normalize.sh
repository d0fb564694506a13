#!/usr/bin/env bash
# normalize.sh DIR: copies DIR (from capture.sh) to DIR.n with what differs
# between two runs of one build replaced: run ids, timestamps, durations,
# fixture tokens and the ids a server generates. Two captures of the same
# binary are identical after it.
set -eu
rm -rf "$1.n"; cp -r "$1" "$1.n"
find "$1.n" -type f | while read -r f; do
  perl -pi -e 's/\d{8}-\d{6}-[A-Za-z0-9:._-]+?-[0-9a-f]{6}\b/RUNID/g; s/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/TS/g; s/"(duration_ms|ms|elapsed_ms|latency_ms|wall_ms|took_ms|[a-z_]*_(?:ms|us|ns))":\s*[\d.]+/"$1":0/g; s/\b\d+(\.\d+)?(ms|µs|s)\b/DUR/g; s/\b([a-z0-9]+)-[0-9a-f]{6}\b/$1-TOKEN/g; s/([a-z0-9]):[0-9a-f]{6}\b/$1:TOKEN/g; s/\b[0-9a-f]{8,64}\b/HEX/g; s/"token":"[0-9a-f]{6}"/"token":"TOKEN"/g' "$f"
done
