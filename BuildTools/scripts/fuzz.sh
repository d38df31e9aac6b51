#!/usr/bin/env bash
# Builds the libFuzzer driver of Fuzz/ (Swift with -sanitize=fuzzer,address) over BuildTools/FuzzHarnesses and runs
# every harness (or the ones named) on a corpus seeded from Fuzz/seeds/<harness>/.
#   fuzz.sh [--seconds N] [--runs N] [harness …]   (both: whichever limit comes first)
#   FUZZ_CONFIGURATION=debug|release (default release)
# Prints each harness's executed-input count. A crash, leak, out-of-memory or timeout leaves its input in
# Fuzz/artifacts/<harness>/ and makes this script fail. The short fixed-seed pass of the same harnesses is part of
# `make test` (Tests/FuzzHarnessesTests).
set -euo pipefail
limit=()
harnesses=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) limit+=(-max_total_time="$2"); shift 2 ;;
        --runs) limit+=(-runs="$2"); shift 2 ;;
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# //'; exit 0 ;;
        *) harnesses+=("$1"); shift ;;
    esac
done
cd "$(dirname "$0")/../../Fuzz"
# Both limits may be given: a harness stops at whichever comes first.
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=60)
if [ ${#harnesses[@]} -eq 0 ]; then
    harnesses=($(ls seeds))
fi
# Release by default: a debug build runs the instrumented SwiftNIO and Swift generics unoptimized, 5 to 10 times
# slower per input; FUZZ_CONFIGURATION=debug gives a driver that builds sooner.
configuration=${FUZZ_CONFIGURATION:-release}
flags=(-c "$configuration" --build-path .build/fuzz --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address)
echo "fuzz: building the driver ($configuration, fuzzer+address)"
# The main package is a path dependency here: SwiftPM does not notice source files added to it since the last plan,
# so the plan is made again every time (the compiled objects stay).
rm -f .build/fuzz/debug.yaml
# ld.gold warns once per sanitizer symbol it cannot export; those lines say nothing about our code.
swift build "${flags[@]}" --product fuzz -q 2>&1 | sed '/Cannot export local symbol/d'
bin=$(swift build "${flags[@]}" --show-bin-path)
status=0
for harness in "${harnesses[@]}"; do
    [ -d "seeds/$harness" ] || { echo "fuzz: no harness '$harness' (known: $(ls seeds | tr '\n' ' '))"; exit 2; }
    mkdir -p "corpus/$harness" "artifacts/$harness"
    # What an earlier run left is moved aside, so this run's verdict is its own (make fuzz-all has kept those inputs
    # in regressions/).
    for old in "artifacts/$harness"/crash-* "artifacts/$harness"/leak-* "artifacts/$harness"/oom-* "artifacts/$harness"/timeout-*; do
        if [ -f "$old" ]; then mkdir -p "artifacts/$harness/earlier"; mv "$old" "artifacts/$harness/earlier/"; fi
    done
    cp "seeds/$harness"/* "corpus/$harness/"
    # Inputs a long run once found failing (make fuzz-all) stay in the corpus, so a fix is fuzzed around them.
    if [ -d "regressions/$harness" ]; then cp "regressions/$harness"/* "corpus/$harness/"; fi
    case "$harness" in
        tl-schema) cp ../Schemas/tl/mtproto.tl "corpus/$harness/" ;;
    esac
    echo "fuzz: $harness (${limit[*]})"
    log="artifacts/$harness/last-run.log"
    FUZZ_HARNESS="$harness" "$bin/fuzz" "corpus/$harness" "${limit[@]}" -max_len=65536 -rss_limit_mb=2048 \
        -timeout=20 -seed=1 -artifact_prefix="artifacts/$harness/" -print_final_stats=1 >"$log" 2>&1 || true
    runs=$(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    if ls "artifacts/$harness"/crash-* "artifacts/$harness"/leak-* "artifacts/$harness"/oom-* \
        "artifacts/$harness"/timeout-* >/dev/null 2>&1; then
        echo "fuzz: $harness FAILED after ${runs:-?} inputs; see $log and the input in Fuzz/artifacts/$harness/"
        grep -E 'ERROR|SUMMARY' "$log" | head -5
        status=1
    else
        echo "fuzz: $harness ok, ${runs:-?} inputs executed"
    fi
done
exit $status
