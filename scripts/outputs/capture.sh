#!/usr/bin/env bash
# capture.sh BIN OUT: what mcpeval prints and writes on the embedded suites,
# for a byte comparison of two builds (a change meant to keep behaviour):
#
#   go build -o /tmp/before ./cmd/mcpeval    # on the old revision
#   go build -o /tmp/after ./cmd/mcpeval     # on the new one
#   scripts/outputs/capture.sh /tmp/before /tmp/b && scripts/outputs/normalize.sh /tmp/b
#   scripts/outputs/capture.sh /tmp/after /tmp/a && scripts/outputs/normalize.sh /tmp/a
#   diff -r /tmp/b.n /tmp/a.n
#
# Each command's stdout (with its exit status) and stderr land in OUT, and
# every run directory under OUT/runs. Attempts run one at a time, so the
# records are in a stable order.
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); OUT=$2; rm -rf "$OUT"; mkdir -p "$OUT"; cd "$OUT"
r() { local name=$1; shift; "$BIN" "$@" >"$name.out" 2>"$name.err"; echo "exit $?" >>"$name.out"; }
for s in household ops; do
  r validate-$s validate $s --json
  r validate-$s-text validate $s
  r coverage-$s coverage $s
  for m in perfect refuse invent; do
    r run-$s-$m run --suite $s --model fake:$m --out runs/$s-$m --concurrency 1
  done
done
r tools-household tools builtin:household --json
r tools-ops tools builtin:ops
r ladder-run run --suite household --model fake:perfect --model fake:invent --out runs/ladder --concurrency 1
r ladder ladder runs/ladder/fake-*
for d in runs/household-perfect runs/household-invent runs/ops-perfect/* runs/ops-refuse/*; do
  n=$(echo $d | tr / _); r report-$n report $d; r report-$n-json report --json $d; r report-$n-md report --markdown $d
  r score-$n score $d
done
r compare compare runs/household-perfect runs/household-invent
r surfaces surfaces runs/ops-perfect/*/ 
r surfaces-json surfaces --json runs/ops-perfect/*/
