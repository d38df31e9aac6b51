import BenchmarkSupport
import Foundation
import PostboxBenchData
import PostboxTesting

/// The live-view benchmark: write-to-emit latency of one inserted message with (a) one open history view,
/// (b) 100 open history views on different peers, (c) a chat-list view over 10,000 chats — on Postbox's live views
/// and, in the same run, on GRDB 7.10's `ValueObservation` (the separate postbox-views-grdb-peer executable, whose
/// JSON is read back here). Both sides store the same data set and perform the same writes
/// (`PostboxBenchData.ViewBenchData`). Environment: POSTBOX_VIEWS_ITERATIONS (default 300) and
/// POSTBOX_VIEWS_WARMUP (default 30) writes per workload; POSTBOX_VIEWS_PLAINTEXT=1 opens Postbox without a key
/// (SQLCipher then writes plain pages, like GRDB's system SQLite) to show what encryption costs.
@main
enum PostboxViewsBench {
    static func environment(_ name: String, default value: Int) -> Int {
        Int(ProcessInfo.processInfo.environment[name] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? value
    }

    static func main() throws {
        checkCommandLine(
            """
            usage: postbox-views-bench

            Write-to-emit latency of one inserted message with 1 and 100 open history views and a 10,000-chat list view,
            on Postbox and on GRDB ValueObservation (postbox-views-grdb-peer, built beside this binary) in the same run.
            Environment: POSTBOX_VIEWS_ITERATIONS (default 300), POSTBOX_VIEWS_WARMUP (default 30),
            POSTBOX_VIEWS_PLAINTEXT=1 opens Postbox without a key.
            """)
        printMachine()
        let warmup = environment("POSTBOX_VIEWS_WARMUP", default: 30)
        let iterations = environment("POSTBOX_VIEWS_ITERATIONS", default: 300)
        let encrypted = ProcessInfo.processInfo.environment["POSTBOX_VIEWS_PLAINTEXT"] != "1"
        print("Postbox: SQLCipher \(encrypted ? "encrypted (the product's setting)" : "without a key (plain pages)")")
        registerPostboxTestTypes()
        let root = TemporaryDirectory(prefix: "postbox-views-bench")
        defer { root.remove() }

        let setupStart = now()
        let run = try PostboxViewsRun(
            accountPath: root.path + "/account", encrypted: encrypted, warmup: warmup, iterations: iterations)
        print(
            String(
                format: "data set: %d chats (%d with %d messages, the rest %d), %d pinned; stored in %.1f s",
                ViewBenchData.chatCount, ViewBenchData.historyPeerCount, ViewBenchData.messagesPerHistoryPeer,
                ViewBenchData.messagesPerChat, ViewBenchData.pinnedPeers.count, now() - setupStart))
        let writeOnly = try run.measureWriteOnly()
        var ours: [ViewWorkload: LatencySummary] = [:]
        for workload in ViewWorkload.allCases { ours[workload] = try run.measure(workload) }

        let grdb = try GRDBPeer.run(warmup: warmup, iterations: iterations)
        if let info = grdb.info {
            print("GRDB 7.10 on system SQLite \(info.sqliteVersion); query plans:")
            for plan in info.queryPlans { print("  \(plan)") }
        }
        printLatencyTable(ours: ours, writeOnly: writeOnly, grdb: grdb)
    }
}
