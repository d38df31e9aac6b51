#!/usr/bin/env bash
# Builds the Benchmarks package in release mode and runs every `*-bench` executable (or those named as arguments),
# each printing a Markdown ratio table; the whole output is also kept in .build/bench-output.md.
set -euo pipefail
cd "$(dirname "$0")/../../Benchmarks"
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
    mapfile -t benches < <(ls Sources | grep -- '-bench$')
fi
mkdir -p ../.build
echo "building benchmarks (release): ${benches[*]}"
for b in "${benches[@]}"; do swift build -c release --product "$b" -q; done
bin=$(swift build -c release --show-bin-path)
{
    echo "# make bench — $(date -u +%Y-%m-%dT%H:%MZ)"
    for b in "${benches[@]}"; do echo; echo "## $b"; "$bin/$b"; done
} | tee ../.build/bench-output.md
