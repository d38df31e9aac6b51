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
# mtproto-bench measures a separate tg-server process (memory per connection): build it here, in release, from the
# same build folder so TelegramApi is compiled once.
if [[ " ${benches[*]} " == *" mtproto-bench "* || " ${benches[*]} " == *" server-limits-bench "* || " ${benches[*]} " == *" server-bench "* ]]; then
    swift build -c release --product tg-server -q
    export TG_SERVER_BIN="$bin/tg-server"
fi
# postbox-views-bench runs GRDB's ValueObservation as a separate process (GRDB links the system libsqlite3, which must
# never share a binary with libsqlcipher): build that peer next to it.
if [[ " ${benches[*]} " == *" postbox-views-bench "* ]]; then
    swift build -c release --product postbox-views-grdb-peer -q
fi
# notification-bench measures the notification-service binary as its own process: the release build as it is, the
# same linked with the Swift runtime static (copied aside first), and postbox-tool as the peer.
if [[ " ${benches[*]} " == *" notification-bench "* ]]; then
    swift build -c release --product notification-service -q --static-swift-stdlib
    cp "$bin/notification-service" "$bin/notification-service-static"
    swift build -c release --product notification-service -q
    swift build -c release --product postbox-tool -q
    export NOTIFICATION_SERVICE_BIN="$bin/notification-service" NOTIFICATION_SERVICE_STATIC_BIN="$bin/notification-service-static"
    export POSTBOX_TOOL_BIN="$bin/postbox-tool"
fi
{
    echo "# make bench — $(date -u +%Y-%m-%dT%H:%MZ)"
    for b in "${benches[@]}"; do echo; echo "## $b"; "$bin/$b"; done
} | tee ../.build/bench-output.md
