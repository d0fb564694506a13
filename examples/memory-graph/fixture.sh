#!/bin/sh
# Starts the memory server on this suite's graph, and puts the graph back,
# run by mcpeval in this directory (the suite's).
#
#   sh fixture.sh serve ENTRY   put the seed graph in place, then run the
#                               server (node ENTRY) on it
#   sh fixture.sh reset         put the seed graph in place: data/seed.jsonl
#                               copied over live/graph.jsonl
#
# The server reads the whole graph file on every call and writes it whole
# on every change, so a reset between attempts needs no restart. It takes
# the file from MEMORY_FILE_PATH, and resolves a relative path against its
# own dist/ folder, not its working directory: serve gives it an absolute one.
set -eu
entry=${2:-}
case "$entry" in '' | /*) ;; *) entry=$PWD/$entry ;; esac
cd "$(dirname "$0")"
reset() {
	cp data/seed.jsonl live/graph.jsonl.reset
	mv live/graph.jsonl.reset live/graph.jsonl
}
case "${1:-}" in
serve)
	if [ -z "$entry" ]; then
		echo "fixture.sh serve: no server entry point" >&2
		exit 2
	fi
	reset
	MEMORY_FILE_PATH=$(pwd -P)/live/graph.jsonl
	export MEMORY_FILE_PATH
	exec node "$entry"
	;;
reset)
	reset
	;;
*)
	echo "usage: sh fixture.sh serve ENTRY | reset" >&2
	exit 2
	;;
esac
