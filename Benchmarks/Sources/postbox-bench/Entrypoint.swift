import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import PostboxTesting
import ValueBox

/// Postbox against raw SQLCipher (the insert limit, same library in this binary) and against GRDB 7.10 on the
/// system SQLite (the separate postbox-grdb-bench executable, kept running as a `--serve` peer with the same page
/// cache), every comparison through `compareInterleaved`: interleaved rounds, each side's output compared each run.
@main
enum PostboxBench {
    static let key = try! PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48))
    static var keyHex: String { (key.key + key.salt).map { String(format: "%02x", $0) }.joined() }

    static func store(_ messages: [BenchMessage]) -> [StoreMessage] {
        messages.map { m in
            let peerId = PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: m.peer))
            return StoreMessage(
                id: .id(MessageId(peerId: peerId, namespace: 0, id: m.id)), timestamp: m.timestamp,
                authorId: peerId, text: m.text)
        }
    }

    static func messageId(peer: Int64, id: Int32) -> MessageId {
        MessageId(peerId: PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: peer)), namespace: 0, id: id)
    }

    /// "messages N, text rows M" of `postbox`'s database, read on a separate raw connection after the timing.
    static func rowCounts(_ postbox: Postbox, encrypted: Bool) -> String {
        let raw = RawSQLCipher(
            path: postbox.databasePath, keyHex: encrypted ? keyHex : nil, cacheSizeKiB: 1024, createTables: false)
        defer { raw.close() }
        return raw.rowCounts
    }

    /// The page cache for Postbox and the raw peer alike (POSTBOX_BENCH_CACHE_KIB, default Postbox's 16 MiB).
    static let cacheKiB = Int(ProcessInfo.processInfo.environment["POSTBOX_BENCH_CACHE_KIB"] ?? "") ?? 16_384
    /// POSTBOX_BENCH_QUICK=1 skips the million-message workloads.
    static let quick = ProcessInfo.processInfo.environment["POSTBOX_BENCH_QUICK"] == "1"

    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Self.help)
            return
        }
        if let position = arguments.firstIndex(of: "--profile") {
            guard position + 1 < arguments.count else {
                print("postbox-bench: --profile needs a workload (insert, raw-insert); see --help")
                exit(2)
            }
            try profile(arguments[position + 1])
            return
        }
        printMachine()
        print("page cache: \(cacheKiB) KiB per connection, Postbox and its peers alike")
        registerPostboxTestTypes()
        let root = TemporaryDirectory(prefix: "postbox-bench")
        defer { root.remove() }
        let grdb = GRDBSide.start(cacheKiB: cacheKiB)

        let messages = BenchData.messages(count: 100_000)
        let storeMessages = store(messages)
        let rawRows = RawSQLCipher.rows(messages)

        let inserts = try InsertBench.run(root: root.path, messages: storeMessages, rows: rawRows, grdb: grdb)
        print(inserts.note)
        let reads = try ReadBench.run(
            root: root.path, messages: messages, storeMessages: storeMessages, rows: rawRows, grdb: grdb)
        printTable(
            title: "Hot keys: LMDB (plaintext) vs SQLCipher ValueBox (encrypted), 16-byte keys, 64-byte values",
            peerName: "SQLCipher", HotStoreBench.run(directory: root.path, cacheKiB: cacheKiB))
        let search =
            quick
            ? (limit: [Comparison](), grdb: [Comparison]()) : try FullTextBench.compare(root: root.path, grdb: grdb)
        printTable(
            title: "Postbox vs raw SQLCipher 4 (same binary, same library)", peerName: "raw SQLCipher",
            inserts.raw + reads.raw + search.limit)
        if grdb != nil {
            printTable(
                title: "Postbox (SQLCipher, encrypted) vs GRDB 7.10 (system SQLite, plain), same page cache",
                peerName: "GRDB", inserts.grdb + reads.grdb + search.grdb)
        }
        print("load average at end: \(loadAverage())")
    }

    static let help = """
        postbox-bench: Postbox against raw SQLCipher (and GRDB through postbox-grdb-bench), printing ratio tables.

        usage: postbox-bench [--profile WORKLOAD]
          --profile insert       one Postbox bulk insert of 100,000 messages into a fresh database, untimed (for
                                 callgrind or perf)
          --profile raw-insert   the same rows through raw SQLCipher prepared inserts, untimed
          --profile fts          the million-message search workload alone, with each query's figures
          --profile transactions what a write transaction costs beside its rows: one chat's 50,000 messages
                                 (POSTBOX_BENCH_MESSAGES) 1,000, 100 and 10 a transaction (POSTBOX_BENCH_SIZES,
                                 e.g. 100,10), then look-ups, empty and state-only transactions;
                                 POSTBOX_BENCH_NO_TEXT=1 stores them without text (no full-text rows);
                                 POSTBOX_BENCH_KEEP_WAL=DIR instead leaves one 100-message transaction in the WAL
                                 of an unencrypted Postbox under DIR (its frames name the pages it wrote)
        environment: POSTBOX_BENCH_QUICK=1 (skip the million-message workloads),
                     POSTBOX_BENCH_CACHE_KIB (page cache of every connection, both sides, default 16384),
                     BENCH_ROUNDS (interleaved rounds, default 7; the million-message build 3),
                     POSTBOX_BENCH_1M_PATH (--profile fts only: keep the million-message account there and reuse it)
        """

    /// One workload run once, without timing, so a profiler sees only it.
    static func profile(_ workload: String) throws {
        registerPostboxTestTypes()
        let root = TemporaryDirectory(prefix: "postbox-bench-profile")
        defer { root.remove() }
        switch workload {
        case "insert":
            let messages = BenchData.messages(count: 100_000)
            let storeMessages = store(messages)
            for run in 0..<(ProcessInfo.processInfo.environment["POSTBOX_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 1)
            {
                let t0 = now()
                let postbox = try Postbox.open(
                    accountPath: root.path + "/account\(run)", encryption: key, cacheSizeKiB: cacheKiB)
                let t1 = now()
                try postbox.transactionSync { try $0.addMessages(storeMessages) }
                let t2 = now()
                print(String(format: "open %.3f insert %.3f", t1 - t0, t2 - t1))
            }
        case "transactions":
            try TransactionCostProfile.run(root: root.path)
        case "raw-insert":
            let messages = BenchData.messages(count: 100_000)
            let rows = RawSQLCipher.rows(messages)
            for run in 0..<(ProcessInfo.processInfo.environment["POSTBOX_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 1)
            {
                let t0 = now()
                let raw = RawSQLCipher(path: root.path + "/db_sqlite\(run)", keyHex: keyHex, cacheSizeKiB: cacheKiB)
                let t1 = now()
                raw.insert(rows)
                let t2 = now()
                print(String(format: "open %.3f insert %.3f", t1 - t0, t2 - t1))
            }
        case "fts":
            let search = try FullTextBench.run(
                root: root.path, cachePath: ProcessInfo.processInfo.environment["POSTBOX_BENCH_1M_PATH"],
                queries: BenchData.queries(200))
            print(
                String(
                    format: "Postbox median %.3f ms p90 %.3f ms; FTS5 alone median %.3f ms p90 %.3f ms; %.1f hits",
                    search.percentile(\.postbox, 0.5) * 1000, search.percentile(\.postbox, 0.9) * 1000,
                    search.percentile(\.ftsAlone, 0.5) * 1000, search.percentile(\.ftsAlone, 0.9) * 1000,
                    search.hitsPerQuery))
            FullTextBench.printSlowest(search, count: 25)
        default:
            print("postbox-bench: unknown workload '\(workload)' for --profile (insert, raw-insert, fts, transactions)")
            exit(2)
        }
    }
}
