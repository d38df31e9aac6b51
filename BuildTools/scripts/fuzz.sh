#!/usr/bin/env bash
# Builds the libFuzzer harnesses of Fuzz/ (Swift with -sanitize=fuzzer,address) and runs each for N seconds on a
# corpus seeded from the repository's own data: the TL schemas for the parser, generated encodings for the decoders.
# A crash leaves its input in Fuzz/artifacts/ and makes this script fail.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/../../Fuzz"
flags=(--build-path .build/fuzz --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address)
for harness in tl-schema-fuzz tl-decoder-fuzz; do
    echo "fuzz: building $harness (debug, fuzzer+address)"
    swift build "${flags[@]}" --product "$harness" -q
done
bin=$(swift build "${flags[@]}" --show-bin-path)
mkdir -p corpus/schema corpus/decoder artifacts
cp ../Schemas/tl/mtproto.tl corpus/schema/
head -c 6000 ../Schemas/tl/api.tl > corpus/schema/api-head.tl
# Decoder seeds (committed): a selector byte, then wire bytes of Telethon-built samples and the auth-key example.
cp seeds/decoder/* corpus/decoder/
for harness in tl-schema-fuzz tl-decoder-fuzz; do
    corpus=corpus/decoder
    [ "$harness" = tl-schema-fuzz ] && corpus=corpus/schema
    echo "fuzz: running $harness for ${seconds}s on $corpus"
    "$bin/$harness" "$corpus" -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=4096 \
        -artifact_prefix=artifacts/ -print_final_stats=1 2>&1 | grep -E 'INFO: Loaded|DONE|ERROR|SUMMARY|stat::number_of_executed_units|crash-' || true
    if ls artifacts/crash-* artifacts/leak-* artifacts/oom-* artifacts/timeout-* >/dev/null 2>&1; then
        echo "fuzz: $harness found a failing input in Fuzz/artifacts/"; exit 1
    fi
done
echo "fuzz: no crashes"
