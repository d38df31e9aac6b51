import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramCore
import UpdateSequencing

/// TelegramCore against tg-server on 127.0.0.1, every comparison on the interleaved method (BENCHMARKS.md,
/// "Method"): catching up 50,000 messages over 200 chats through getDifference slices into Postbox, against Telethon
/// 1.45 + cryptg receiving and parsing the same difference and against Postbox's own insert of the same messages (the
/// limit), each round a fresh authorization with the same difference and both sides' messages checked; receiving and
/// parsing alone against Telethon; live delivery from a Telethon sender to our open history view against a Telethon
/// receiver; and the cold start of an account with 100,000 stored messages (no peer).
@main
enum CoreBench {
    static let annPhone = "9996622201"

    static func main() async throws {
        checkCommandLine(
            """
            usage: core-bench

            TelegramCore against tg-server on 127.0.0.1, in interleaved rounds with Telethon 1.45 + cryptg: catching up
            50,000 messages over 200 chats (each round a fresh authorization), receiving the difference only, live
            delivery to an open view; and the cold start of an account with 100,000 messages. BENCH_ROUNDS=n sets the
            rounds; BENCH_CHECK=1 runs one round of a smaller workload. Needs `make deps` (the venv with Telethon).
            Run through `make bench BENCH=core-bench`.
            """)
        printMachine()
        registerTelegramCoreTypes()
        let check = BenchmarkMethod.isCheck
        let (chatCount, perChat) = check ? (20, 50) : (200, 250)
        let liveCount = check ? 30 : 200
        let coldMessages = check ? 10_000 : 100_000
        let bench = try await BenchWorld(name: "core-bench")
        defer { bench.remove() }
        let (world, root) = (bench.server, bench.root)

        var manager: AccountManager? = try AccountManager(rootPath: root + "/app", environment: bench.environment)
        let ann = try await BenchAccounts.signUp(manager!, phone: annPhone, name: "Ann")
        ann.start()
        try await BenchAccounts.waitFor("Ann's first state") { try storedState(ann) != nil }
        await ann.shutdown()
        let start = try storedState(ann)!

        // The writer (a raw client) makes the groups with Ann and fills them while she is offline.
        let (chats, fillSeconds) = try await CatchUp.fill(
            world: world, targetPhone: annPhone, chats: chatCount, perChat: perChat)
        let expected = chats.count * (perChat + 1)  // each chat's creation message and its messages
        print(String(format: "filled %d chats with %d messages in %.1f s", chatCount, chatCount * perChat, fillSeconds))
        let catchUp = CatchUp(manager: manager!, phone: annPhone, start: start, chats: chats, expected: expected)

        // Telethon: a second authorization of Ann, kept running, receives and parses the same difference each round.
        let telethon = try PeerProcess(
            "telethon_difference.py",
            arguments: ["--port", String(bench.port), "--pem-file", bench.pem, "--phone", annPhone])
        let fromStart: [String: Any] = ["pts": start.pts, "date": start.date, "qts": start.qts]

        var source: ([StoreMessage], [Peer])?
        var statistics: [(differences: Int, apply: Double, sequencer: Double, storage: PostboxWriteStatistics)] = []
        let items = Double(expected)
        let againstTelethon = try await compareInterleavedRounds(
            "catch-up: \(expected.formatted()) messages in \(chatCount) chats via getDifference into Postbox (a fresh "
                + "authorization each round) vs Telethon 1.45 + cryptg receiving and parsing the same difference",
            items: items, unit: "msgs", rounds: 5, goal: "≥ 2×",
            oursAsync: { _ in
                try await catchUp.fresh { account in
                    if source == nil { source = try CatchUp.storedMessages(account, chats: chats) }
                    let s = account.stateManager.statistics
                    statistics.append(
                        (s.differences, s.applySeconds, s.sequencerSeconds, account.postbox.writeStatistics()))
                }
            },
            peerAsync: { _ in try await telethon.timedOffPool(fromStart) })
        let againstPostbox = try await compareInterleavedRounds(
            "the same catch-up vs Postbox's own insert of the same messages in arrival order, 1,000 a transaction "
                + "(the limit)", items: items, unit: "msgs", rounds: 5, goal: "≥ 0.5×",
            oursAsync: { _ in try await catchUp.fresh() },
            peerAsync: { round in
                try CatchUp.bulkInsert(source!.0, peers: source!.1, chats: chats, path: root + "/bulk-\(round)")
            })

        // Ann comes online and catches up herself; her network then fetches the same difference without storing it.
        ann.start()
        try await BenchAccounts.waitFor("Ann's catch-up", timeout: 300) {
            ann.stateManager.statistics.storedMessages >= expected
        }
        let receiveOnly = try await compareInterleaved(
            "receiving and parsing the same difference only (AccountNetwork, nothing stored) vs Telethon 1.45 + cryptg",
            items: items, unit: "msgs", rounds: 5,
            oursAsync: { try await catchUp.receiveOnly(ann) }, peerAsync: { try await telethon.timedOffPool(fromStart) }
        )

        // Live: a Telethon sender writes to Ann's open view and to a Telethon receiver, in turns.
        let live = try await LiveDelivery(
            ours: ann, ourPhone: annPhone, peerPhone: "9996622297", world: bench, count: liveCount)
        let liveRow = try await compareInterleavedRounds(
            "live delivery", items: 1, unit: "msg", rounds: 5,
            oursAsync: { try await live.oursRound($0) }, peerAsync: { try await live.peerRound($0) })
        await ann.shutdown()

        let cold = try await ColdStart.run(
            manager: &manager, root: root, environment: bench.environment, messages: coldMessages)
        try await world.close()

        printTable(
            title: "TelegramCore (tg-server on 127.0.0.1), interleaved rounds", peerName: "peer",
            [againstTelethon, receiveOnly, againstPostbox])
        let last = statistics.last ?? (0, 0, 0, PostboxWriteStatistics())
        print(
            String(
                format:
                    "\nof the last catch-up round: %d difference calls, %.2f s in batch transactions (conversion and Postbox), %.2f s in the state machine",
                last.differences, last.apply, last.sequencer))
        // Everything the account's Postbox wrote since it opened (the sign-in's few transactions included).
        print(
            String(
                format:
                    "its Postbox: %d write transactions, %.2f s on the writer queue (%.1f µs per message), %.2f s of "
                    + "that thread's CPU (%.1f µs per message)",
                last.storage.transactions, last.storage.seconds, last.storage.seconds / items * 1e6,
                last.storage.cpuSeconds, last.storage.cpuSeconds / items * 1e6))
        func ms(_ value: Double?) -> String { String(format: "%.2f", (value ?? .nan) * 1000) }
        let oursLive =
            "p50 \(ms(liveRow.ours.seconds)) ms (\(ms(liveRow.ours.range?.lowerBound))–"
            + "\(ms(liveRow.ours.range?.upperBound))), p99 \(ms(median(live.oursP99.sorted()))) ms"
        let peerLive =
            "p50 \(ms(liveRow.peer?.seconds)) ms (\(ms(liveRow.peer?.range?.lowerBound))–"
            + "\(ms(liveRow.peer?.range?.upperBound))), p99 \(ms(median(live.peerP99.sorted()))) ms"
        let liveRatio = String(
            format: "%.2f× (%.2f–%.2f)", liveRow.ratio ?? .nan, liveRow.ratioRange?.lowerBound ?? .nan,
            liveRow.ratioRange?.upperBound ?? .nan)
        print(
            "live (\(liveCount) messages 20 ms apart a round, medians of the rounds): Telethon sends → our history "
                + "view emits: \(oursLive); → Telethon's NewMessage handler: \(peerLive); Telethon's p50 / ours "
                + "\(liveRatio) (goal: our p50 ≤ 5 ms)")
        print(
            String(
                format:
                    "cold start with %d stored messages (open, connect, getDifference, first chat list; no peer): median %.0f ms of %d, min %.0f ms (goal ≤ 300 ms)",
                coldMessages, cold.median * 1000, cold.runs, cold.minimum * 1000))
    }

    static func storedState(_ account: Account) throws -> UpdatesState? {
        try account.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state }
    }
}
