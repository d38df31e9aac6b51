#!/usr/bin/env bash
# make bench-check: builds the benchmarks that time both sides with BenchmarkSupport's `compareInterleaved` and runs
# each once with BENCH_CHECK=1 (one round per comparison). `compareInterleaved` compares what the two sides produced
# and exits with status 2 when they differ, so a benchmark whose peer stopped doing the same work as ours fails here
# before any of its figures is quoted. Arguments name a subset.
set -euo pipefail
cd "$(dirname "$0")/../../Benchmarks"
# Every benchmark whose comparisons go through compareInterleaved (BENCHMARKS.md, "Method").
checked=(signal-bench hashing-bench mergelists-bench tl-bench video-bench postbox-bench postbox-views-bench core-bench
    send-bench channel-bench transfer-bench mtproto-bench mtproxy-bench textlayout-bench stream-bench media-bench
    notification-bench)
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then benches=("${checked[@]}"); fi
rm -f .build/release/description.json
mkdir -p ../.build
failed=()
for b in "${benches[@]}"; do
    echo "bench-check: building $b (release)"
    swift build -c release --product "$b" -q
    # A peer that must live in its own binary (GRDB links the system SQLite, the benchmark SQLCipher).
    case "$b" in
        postbox-bench) swift build -c release --product postbox-grdb-bench -q ;;
        postbox-views-bench) swift build -c release --product postbox-views-grdb-peer -q ;;
        # mtproto-bench's client-cost table, stream-bench and transfer-bench measure a release tg-server in its own
        # process.
        mtproto-bench | stream-bench | transfer-bench) swift build -c release --product tg-server -q ;;
        # mtproxy-bench runs a release tg-server and our release mtproxy, each its own process.
        mtproxy-bench)
            swift build -c release --product tg-server -q
            swift build -c release --product mtproxy -q
            ;;
        # notification-bench spawns the service as shipped (static runtime, no PIE; `make bench` builds two more
        # links) and postbox-tool, its peer, and compares the message each run stored.
        notification-bench)
            (cd .. && swift build -c release --product notification-service -q \
                --scratch-path .build/notification-service/static-no-pie --static-swift-stdlib -Xlinker -no-pie)
            swift build -c release --product postbox-tool -q
            ;;
    esac
done
bin=$(swift build -c release --show-bin-path)
export TG_SERVER_BIN="$bin/tg-server"
export MTPROXY_BIN="$bin/mtproxy"
export NOTIFICATION_SERVICE_BIN_static_no_pie
NOTIFICATION_SERVICE_BIN_static_no_pie="$(cd .. && pwd)/.build/notification-service/static-no-pie/release/notification-service"
export POSTBOX_TOOL_BIN="$bin/postbox-tool"
for b in "${benches[@]}"; do
    echo "bench-check: $b"
    # mtproto-bench's comparisons with a peer are its client-cost rounds (the other tables have no peer).
    arguments=()
    if [ "$b" = mtproto-bench ]; then arguments=(--client-cost); fi
    if ! BENCH_CHECK=1 "$bin/$b" "${arguments[@]}" > "../.build/bench-check-$b.md"; then
        failed+=("$b")
        echo "bench-check: $b FAILED (output in .build/bench-check-$b.md)" >&2
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "bench-check: ${#failed[@]} of ${#benches[@]} failed: ${failed[*]}" >&2
    exit 1
fi
echo "bench-check: ${#benches[@]} benchmarks, both sides of every comparison did the same work"
