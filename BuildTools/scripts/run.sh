#!/usr/bin/env bash
# `make run`: runs the most complete app there is. Until the `tg` client exists it says so and runs what is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(swift build --show-bin-path)
if [ -x "$bin/tg" ]; then
    exec bash BuildTools/scripts/run-tg.sh
fi
echo "make run: the tg client does not exist yet; running the most complete tool available instead."
echo "make run: boundary-check over this package (module map, app subsets, imports):"
"$bin/boundary-check" --package-path . --verbose
