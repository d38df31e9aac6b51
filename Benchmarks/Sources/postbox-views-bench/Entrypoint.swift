import BenchmarkSupport
import Foundation
import PostboxBenchData
import PostboxTesting

/// The live-view benchmark: write-to-emit latency of one inserted message with (a) one open history view,
/// (b) 100 open history views on different peers, (c) a chat-list view over 10,000 chats — on Postbox's live views
/// against GRDB 7.10's `ValueObservation` (postbox-views-grdb-peer, kept running as a `--serve` peer with the same
/// 16 MiB page cache), through `compareInterleavedRounds` (every round writes new messages, so the two sides'
/// outputs are compared round by round): each round opens the workload's views on one side, writes
/// (POSTBOX_VIEWS_WARMUP untimed, default 5, then POSTBOX_VIEWS_ITERATIONS timed, default 60) and reports the median
/// latency of its writes and a checksum of the messages its observers received; rounds alternate which side goes
/// first. Both sides store the same data set and perform the same writes (`PostboxBenchData.ViewBenchData`).
/// POSTBOX_VIEWS_PLAINTEXT=1 opens Postbox without a key (SQLCipher then writes plain pages, like GRDB's system
/// SQLite) to show what encryption costs.
@main
enum PostboxViewsBench {
    static func environment(_ name: String, default value: Int) -> Int {
        Int(ProcessInfo.processInfo.environment[name] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? value
    }

    static let cacheKiB = 16_384

    static func main() throws {
        checkCommandLine(
            """
            usage: postbox-views-bench

            Write-to-emit latency of one inserted message with 1 and 100 open history views and a 10,000-chat list view,
            on Postbox and on GRDB ValueObservation (postbox-views-grdb-peer, built beside this binary), in interleaved
            rounds. Environment: POSTBOX_VIEWS_ITERATIONS (timed writes per round, default 60),
            POSTBOX_VIEWS_WARMUP (untimed writes per round, default 5), BENCH_ROUNDS (default 7),
            POSTBOX_VIEWS_PLAINTEXT=1 opens Postbox without a key.
            """)
        printMachine()
        let warmup = environment("POSTBOX_VIEWS_WARMUP", default: 5)
        let iterations = environment("POSTBOX_VIEWS_ITERATIONS", default: BenchmarkMethod.isCheck ? 20 : 60)
        let encrypted = ProcessInfo.processInfo.environment["POSTBOX_VIEWS_PLAINTEXT"] != "1"
        print("Postbox: SQLCipher \(encrypted ? "encrypted (the product's setting)" : "without a key (plain pages)")")
        print("page cache: \(cacheKiB) KiB per connection, both sides; \(warmup) + \(iterations) writes per round")
        registerPostboxTestTypes()
        let root = TemporaryDirectory(prefix: "postbox-views-bench")
        defer { root.remove() }

        let setupStart = now()
        let run = try PostboxViewsRun(
            accountPath: root.path + "/account", encrypted: encrypted, cacheKiB: cacheKiB, warmup: warmup,
            iterations: iterations)
        print(
            String(
                format: "data set: %d chats (%d with %d messages, the rest %d), %d pinned; stored in %.1f s",
                ViewBenchData.chatCount, ViewBenchData.historyPeerCount, ViewBenchData.messagesPerHistoryPeer,
                ViewBenchData.messagesPerChat, ViewBenchData.pinnedPeers.count, now() - setupStart))
        guard let grdb = try GRDBPeer.start(cacheKiB: cacheKiB, warmup: warmup, iterations: iterations) else { return }
        let info = try grdb.info()
        print("GRDB 7.10 on system SQLite \(info.version); query plans:")
        for plan in info.plans { print("  \(plan)") }

        func ours(_ body: () throws -> (LatencySummary, FoundChecksum)) -> TimedRun<String> {
            let (summary, found) = try! body()
            return TimedRun(seconds: summary.median, output: found.text)
        }
        var rows = [
            compareInterleavedRounds(
                "baseline: the write transaction alone, nothing open", items: 1, unit: "write",
                oursTimed: { _ in ours(run.measureWriteOnly) }, peerTimed: { _ in grdb.round(["op": "write"]) })
        ]
        for workload in ViewWorkload.allCases {
            for (mode, name) in [("tracking", "`tracking`"), ("constant", "`trackingConstantRegion`")] {
                let row = compareInterleavedRounds(
                    "\(workload.title), GRDB \(name)", items: 1, unit: "emit",
                    oursTimed: { _ in ours { try run.measure(workload) } },
                    peerTimed: { _ in grdb.round(["op": "measure", "workload": workload.rawValue, "mode": mode]) })
                rows.append(
                    Comparison(
                        row.workload, ours: row.ours, peer: row.peer, roundRatios: row.roundRatios,
                        goal: goal(workload, row)))
            }
        }
        printLatencyTable(title: "Write-to-emit latency, one inserted message (median of round medians)", rows)
    }

    /// The workload's goal (BENCHMARKS.md) with ✔ or ✘ on the medians.
    static func goal(_ workload: ViewWorkload, _ row: Comparison) -> String {
        switch workload {
        case .oneHistoryView: return "≤ 0.5 ms median " + (row.ours.seconds <= 0.0005 ? "✔" : "✘")
        case .hundredHistoryViews: return "≥ 20× GRDB " + ((row.ratio ?? 0) >= 20 ? "✔" : "✘")
        case .chatList: return "≤ 2 ms median " + (row.ours.seconds <= 0.002 ? "✔" : "✘")
        }
    }
}
