#!/bin/sh
# Fixtures and cleanup for the filesystem suite, run by mcpeval in this
# directory (the suite's) with the attempt's token in MCPEVAL_TOKEN.
# The server has no tool that deletes a file, so cleanup is a command.
#
#   sh fixture.sh make NAME [LINE...]  write data/scratch/NAME, one LINE a line,
#                                      and print its path as the server's
#                                      clients name it, relative and absolute:
#                                      {"path": "scratch/NAME", "abs": "/.../data/scratch/NAME"}
#   sh fixture.sh clean                remove everything under data/ whose name
#                                      carries $MCPEVAL_TOKEN, and the stray
#                                      files fake:extra-change makes (stray-*)
set -eu
cd "$(dirname "$0")"
case "${1:-}" in
make)
	name=$2
	shift 2
	case "$name" in */* | .* | *'"'* | *'\'*) echo "fixture.sh: bad name $name" >&2; exit 2 ;; esac
	: > "data/scratch/$name"
	for line in "$@"; do printf '%s\n' "$line" >> "data/scratch/$name"; done
	abs=$(cd data/scratch && pwd -P)/$name
	printf '{"path": "scratch/%s", "abs": "%s"}\n' "$name" "$abs"
	;;
clean)
	token=${MCPEVAL_TOKEN:-}
	if [ ${#token} -lt 6 ]; then
		echo "fixture.sh clean: no token in MCPEVAL_TOKEN" >&2
		exit 2
	fi
	find data -depth -name "*$token*" -exec rm -rf {} +
	find data/scratch -name 'stray-*' -exec rm -rf {} +
	;;
*)
	echo "usage: sh fixture.sh make NAME [LINE...] | clean" >&2
	exit 2
	;;
esac
