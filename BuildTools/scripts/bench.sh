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
# The repository is a path dependency of this package, and SwiftPM may reuse a cached build plan that misses a source
# file added to a module since the last build ("cannot find 'X' in scope"); dropping the plan makes it re-read every
# target's files, at the cost of a few seconds of planning.
rm -f .build/release/description.json
for b in "${benches[@]}"; do swift build -c release --product "$b" -q; done
bin=$(swift build -c release --show-bin-path)
# mtproto-bench measures a separate tg-server process (memory per connection): build it here, in release, from the
# same build folder so TelegramApi is compiled once.
if [[ " ${benches[*]} " == *" mtproto-bench "* || " ${benches[*]} " == *" server-limits-bench "* || " ${benches[*]} " == *" server-bench "* \
    || " ${benches[*]} " == *" channel-bench "* || " ${benches[*]} " == *" mtproxy-bench "* \
    || " ${benches[*]} " == *" stream-bench "* || " ${benches[*]} " == *" transfer-bench "* ]]; then
    swift build -c release --product tg-server -q
    export TG_SERVER_BIN="$bin/tg-server"
fi
# mtproxy-bench measures our release `mtproxy` as its own process in front of that tg-server.
if [[ " ${benches[*]} " == *" mtproxy-bench "* ]]; then
    swift build -c release --product mtproxy -q
    export MTPROXY_BIN="$bin/mtproxy"
fi
# postbox-views-bench runs GRDB's ValueObservation as a separate process (GRDB links the system libsqlite3, which must
# never share a binary with libsqlcipher): build that peer next to it.
if [[ " ${benches[*]} " == *" postbox-views-bench "* ]]; then
    swift build -c release --product postbox-views-grdb-peer -q
fi
# notification-bench measures the notification-service binary as its own process, linked three ways, each built from
# the repository root into a scratch folder of its own (link flags change every object's build, so variants sharing
# one folder would rebuild each other): the release build as `make notification-service` links it (Swift runtime
# dynamic), with the runtime static, and static without PIE (what `make notification-service-release` ships); and
# postbox-tool as the peer.
if [[ " ${benches[*]} " == *" notification-bench "* ]]; then
    variants=("dynamic:" "static:--static-swift-stdlib" "static-no-pie:--static-swift-stdlib -Xlinker -no-pie")
    for v in "${variants[@]}"; do
        name=${v%%:*}
        # shellcheck disable=SC2086
        (cd .. && swift build -c release --product notification-service -q --scratch-path ".build/notification-service/$name" ${v#*:})
        export "NOTIFICATION_SERVICE_BIN_${name//-/_}=$(cd .. && pwd)/.build/notification-service/$name/release/notification-service"
    done
    swift build -c release --product postbox-tool -q
    export POSTBOX_TOOL_BIN="$bin/postbox-tool"
fi
{
    echo "# make bench — $(date -u +%Y-%m-%dT%H:%MZ)"
    for b in "${benches[@]}"; do echo; echo "## $b"; "$bin/$b"; done
} | tee ../.build/bench-output.md
