import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import PostboxTesting

/// `--profile transactions`: what a write transaction costs beside its rows. The same messages of one chat (a
/// channel catching up) are inserted into fresh encrypted Postboxes 1,000, 100 and 10 a transaction, and a run of
/// transactions that store one small value (the account state a batch ends with) and of empty ones is timed; the
/// fixed cost per transaction is the difference between the sizes divided by the difference in transactions.
enum TransactionCostProfile {
    static func run(root: String) throws {
        registerPostboxTestTypes()
        if let keep = ProcessInfo.processInfo.environment["POSTBOX_BENCH_KEEP_WAL"] {
            try keepOneTransactionWAL(at: keep)
            return
        }
        let count = Int(ProcessInfo.processInfo.environment["POSTBOX_BENCH_MESSAGES"] ?? "") ?? 50_000
        var messages = PostboxBench.store(BenchData.messages(count: count, chats: 1))
        if ProcessInfo.processInfo.environment["POSTBOX_BENCH_NO_TEXT"] == "1" {
            for index in messages.indices { messages[index].text = "" }
        }
        var run = 0
        func fresh() throws -> Postbox {
            run += 1
            return try Postbox.open(
                accountPath: root + "/tx\(run)", encryption: PostboxBench.key, cacheSizeKiB: PostboxBench.cacheKiB)
        }
        var bySize: [(size: Int, transactions: Int, seconds: Double)] = []
        let sizes =
            ProcessInfo.processInfo.environment["POSTBOX_BENCH_SIZES"].map {
                $0.split(separator: ",").compactMap { Int($0) }
            }
            ?? [1_000, 100, 10]
        for size in sizes {
            let postbox = try fresh()
            let started = now()
            for start in stride(from: 0, to: messages.count, by: size) {
                let chunk = Array(messages[start..<min(start + size, messages.count)])
                try postbox.transactionSync { tx in _ = try tx.addMessages(chunk) }
            }
            let seconds = now() - started
            let statistics = postbox.writeStatistics()
            bySize.append((size, statistics.transactions, seconds))
            print(
                String(
                    format: "%5d a transaction: %.3f s (%.1f k msgs/s), %d transactions, %.3f ms each, CPU %.3f s",
                    size, seconds, Double(count) / seconds / 1000, statistics.transactions,
                    seconds / Double(statistics.transactions) * 1000, statistics.cpuSeconds))
        }
        for pair in zip(bySize, bySize.dropFirst()) {
            let fixed = (pair.1.seconds - pair.0.seconds) / Double(pair.1.transactions - pair.0.transactions)
            print(String(format: "fixed cost, %d → %d a transaction: %.3f ms", pair.0.size, pair.1.size, fixed * 1000))
        }
        let postbox = try fresh()
        try postbox.transactionSync { tx in _ = try tx.addMessages(Array(messages.prefix(1_000))) }
        // What a batch applier pays to learn which of a slice's messages are stored already: one look-up each.
        let absent = messages.dropFirst(1_000).prefix(10_000).map { message -> MessageId in
            guard case .id(let id) = message.id else { fatalError("bench messages have full ids") }
            return id
        }
        let lookupsStarted = now()
        try postbox.transactionSync { tx in
            for id in absent where try tx.messageIndex(id) != nil { fatalError("\(id) is not stored") }
        }
        print(
            String(
                format: "look-ups of messages not stored: %.3f µs each",
                (now() - lookupsStarted) / Double(absent.count) * 1e6))
        for (name, body) in [
            ("empty", { (_: Transaction) throws in }),
            (
                "state only",
                { (tx: Transaction) throws in try tx.setState(TestPreferencesEntry(value: "state \(run)")) }
            ),
        ] as [(String, (Transaction) throws -> Void)] {
            let transactions = 2_000
            let before = postbox.writeStatistics()
            let started = now()
            for index in 0..<transactions {
                run = index
                try postbox.transactionSync(body)
            }
            let seconds = now() - started
            let cpu = postbox.writeStatistics().cpuSeconds - before.cpuSeconds
            print(
                String(
                    format: "%@ transactions: %.3f ms each, CPU %.3f ms each", name,
                    seconds / Double(transactions) * 1000, cpu / Double(transactions) * 1000))
        }
    }

    /// An unencrypted Postbox at `path` with 10,000 messages of one chat checkpointed, then one more transaction of
    /// 100 left in its WAL (the process exits without closing it), so the WAL's frames name the pages a transaction
    /// writes (`dbstat` maps them to tables).
    static func keepOneTransactionWAL(at path: String) throws {
        let messages = PostboxBench.store(BenchData.messages(count: 10_100, chats: 1))
        let postbox = try Postbox.open(accountPath: path, encryption: nil)
        for start in stride(from: 0, to: 10_000, by: 100) {
            try postbox.transactionSync { tx in _ = try tx.addMessages(Array(messages[start..<start + 100])) }
        }
        try postbox.checkpoint(truncate: true)
        try postbox.transactionSync { tx in _ = try tx.addMessages(Array(messages[10_000..<10_100])) }
        print("left one transaction in \(postbox.databasePath)-wal")
        exit(0)
    }
}
