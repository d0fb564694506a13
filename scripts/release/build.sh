#!/usr/bin/env bash
# Builds mcpeval's release binaries and their SHA256SUMS.
#
#   scripts/release/build.sh [-o DIR] [-v VERSION] [GOOS/GOARCH...]
#   scripts/release/build.sh -o DIR --sums    # only (re)write DIR/SHA256SUMS
#   scripts/release/build.sh --list           # the release targets, one a line
#
# Each target is built from this checkout with CGO_ENABLED=0 and -trimpath
# into DIR/mcpeval-GOOS-GOARCH (.exe on windows); with no target given,
# every release target is built. VERSION (default: the tag at HEAD, if any)
# is stamped as mcpeval's version. Then DIR/SHA256SUMS is written over
# every mcpeval-* binary in DIR, so `cd DIR && sha256sum -c SHA256SUMS`
# verifies them. .github/workflows/release.yml builds one target per job
# and writes the sums in a last job; .ci/run builds linux/amd64 alone.
set -euo pipefail

# The release targets: .github/workflows/release.yml's matrix is checked
# against this list (cmd/mcpeval's TestReleaseTargets).
TARGETS=(
  linux/amd64
  linux/arm64
  darwin/amd64
  darwin/arm64
  windows/amd64
  windows/arm64
)

out=dist
version=""
sums_only=false
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=${2:?-o wants a folder}; shift 2 ;;
    -v) version=${2:?-v wants a version}; shift 2 ;;
    --sums) sums_only=true; shift ;;
    --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=("${TARGETS[@]}")
fi

cd "$(dirname "$0")/../.."
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ! $sums_only; then
  if [ -z "$version" ]; then
    version=$(git describe --tags --exact-match 2>/dev/null || true)
  fi
  ldflags="-s -w"
  if [ -n "$version" ]; then
    ldflags="$ldflags -X github.com/mcpeval/mcpeval/internal/buildinfo.Version=$version"
  fi
  for t in "${targets[@]}"; do
    known=false
    for k in "${TARGETS[@]}"; do
      if [ "$k" = "$t" ]; then known=true; fi
    done
    if ! $known; then
      echo "build.sh: $t is not a release target (build.sh --list)" >&2
      exit 2
    fi
    goos=${t%/*}
    goarch=${t#*/}
    bin="mcpeval-$goos-$goarch"
    if [ "$goos" = windows ]; then bin="$bin.exe"; fi
    echo "building $bin" >&2
    CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "$ldflags" -o "$out/$bin" ./cmd/mcpeval
  done
fi

cd "$out"
shopt -s nullglob
bins=(mcpeval-*)
if [ ${#bins[@]} -eq 0 ]; then
  echo "build.sh: no mcpeval-* binary in $out to sum" >&2
  exit 1
fi
sha256sum "${bins[@]}" > SHA256SUMS.tmp
mv SHA256SUMS.tmp SHA256SUMS
echo "wrote $out/SHA256SUMS over ${#bins[@]} binaries" >&2
