#!/usr/bin/env bash
# Every fuzz harness for a recorded run: each until FUZZ_RUNS inputs (default 1,000,000) or FUZZ_MAX_SECONDS
# (default 3,600), whichever comes first, under libFuzzer + AddressSanitizer (BuildTools/scripts/fuzz.sh builds the
# driver). Writes the table of the runs — harness, inputs executed, seconds, coverage (libFuzzer's `cov` edges and
# `ft` features at the end), corpus size, crashes — between the fuzz-all markers of Fuzz/README.md, one row per
# harness with the time of its run (fuzz_table.py: a run of some harnesses keeps the others' rows). Each crash,
# leak, out-of-memory or timeout input is copied into Fuzz/regressions/<harness>/ as `<kind>-<sha1>`, which `make
# test` (Tests/FuzzHarnessesTests) runs from then on and `make fuzz` adds to the corpus; the script then exits 1.
#   fuzz-all.sh [harness …]
set -euo pipefail
runs=${FUZZ_RUNS:-1000000}
seconds=${FUZZ_MAX_SECONDS:-3600}
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# //'; exit 0 ;; esac
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo/Fuzz"
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=($(ls seeds))
rows=()
status=0
# One driver build, every harness in turn; libFuzzer stops each at whichever limit comes first. FUZZ_TABLE_ONLY=1
# writes the table from the harnesses' last logs without running them again (a run that was cut short).
if [ -z "${FUZZ_TABLE_ONLY:-}" ]; then
    # An earlier run's log must not be read as this run's (a driver that fails to build runs nothing).
    for harness in "${harnesses[@]}"; do rm -f "artifacts/$harness/last-run.log"; done
    bash "$repo/BuildTools/scripts/fuzz.sh" --runs "$runs" --seconds "$seconds" "${harnesses[@]}" || true
fi
for harness in "${harnesses[@]}"; do
    log="artifacts/$harness/last-run.log"
    if [ ! -f "$log" ]; then
        echo "fuzz-all: $harness did not run (no $log: see the output above); no row written"
        status=1
        continue
    fi
    executed=$(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    elapsed=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1 || true)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corpus=$(sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p' <<<"$last")
    found=0
    for input in artifacts/"$harness"/crash-* artifacts/"$harness"/leak-* artifacts/"$harness"/oom-* artifacts/"$harness"/timeout-*; do
        [ -f "$input" ] || continue
        found=$((found + 1))
        mkdir -p "regressions/$harness"
        cp "$input" "regressions/$harness/$(basename "$input" | cut -d- -f1)-$(sha1sum "$input" | cut -c1-16)"
        status=1
    done
    rows+=("| $harness | ${executed:-?} | ${elapsed:-?} | ${cov:-?} / ${ft:-?} | ${corpus:-?} | $found | ${FUZZ_CONFIGURATION:-release} |")
    echo "fuzz-all: $harness: ${executed:-?} inputs in ${elapsed:-?} s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corpus:-?}, crashes $found"
done

header=$(printf 'Rows written by `make fuzz-all` (FUZZ_RUNS=%s, FUZZ_MAX_SECONDS=%s, %s + ASan in the last run), %s, %s cores. A run of some harnesses (`HARNESS=`) replaces their rows and keeps the others; the build column says how each row was run.' \
    "$runs" "$seconds" "${FUZZ_CONFIGURATION:-release}" "$(uname -m)" "$(nproc)")
if [ ${#rows[@]} -gt 0 ]; then
    python3 "$repo/BuildTools/scripts/fuzz_table.py" README.md "$header" "$(date -u '+%Y-%m-%d %H:%M')" "${rows[@]}"
    echo "fuzz-all: table written to Fuzz/README.md"
fi
exit $status
