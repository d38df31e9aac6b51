import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import PostboxTesting
import ValueBox

/// Postbox against raw SQLCipher (the insert limit, same library in this binary) and against GRDB 7.10 on the
/// system SQLite (run as the separate postbox-grdb-bench executable, whose JSON results are read back here).
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

    static func grdbResults() -> [String: BenchmarkSupport.Measurement] {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("postbox-grdb-bench")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            print("(postbox-grdb-bench not built: `make bench-postbox` builds both; GRDB columns left empty)")
            return [:]
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try! process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Result: Decodable { var name: String; var seconds: Double; var items: Double; var unit: String }
        var results: [String: BenchmarkSupport.Measurement] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let r = try? JSONDecoder().decode(Result.self, from: line) {
                results[r.name] = BenchmarkSupport.Measurement(
                    name: "GRDB " + r.name, seconds: r.seconds, items: r.items, unit: r.unit)
            }
        }
        return results
    }

    /// The page cache for Postbox and the raw peer alike (POSTBOX_BENCH_CACHE_KIB, default Postbox's 16 MiB).
    static let cacheKiB = Int(ProcessInfo.processInfo.environment["POSTBOX_BENCH_CACHE_KIB"] ?? "") ?? 16_384
    /// POSTBOX_BENCH_QUICK=1 skips the million-message workloads and GRDB.
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
        print("page cache: \(cacheKiB) KiB")
        registerPostboxTestTypes()
        let root = TemporaryDirectory(prefix: "postbox-bench")
        defer { root.remove() }
        var run = 0
        func freshAccount() -> String {
            run += 1
            return root.path + "/account-\(run)"
        }

        let count = 100_000
        let messages = BenchData.messages(count: count)
        let storeMessages = store(messages)
        let rawRows = RawSQLCipher.rows(messages)

        print("load average at start: \(loadAverage())")
        let inserts = try InsertBench.run(root: root.path, messages: storeMessages, rows: rawRows)
        let ours = inserts.postbox
        let raw = inserts.raw
        print(
            String(
                format: "bulk insert, medians of 5 interleaved rounds: Postbox %.3f s wall / %.3f s CPU, raw SQLCipher "
                    + "%.3f s / %.3f s, Postbox plaintext %.3f s / %.3f s; ratio Postbox/raw: wall %.2f× (median of "
                    + "per-round ratios %.2f×), CPU %.2f×",
                ours.seconds, inserts.postboxCPU, raw.seconds, inserts.rawCPU, inserts.plaintext.seconds,
                inserts.plaintextCPU, raw.seconds / ours.seconds, inserts.pairedRatio,
                inserts.rawCPU / inserts.postboxCPU))

        let account = freshAccount()
        let postbox = try Postbox.open(accountPath: account, encryption: key, cacheSizeKiB: cacheKiB)
        try postbox.transactionSync { try $0.addMessages(storeMessages) }
        let rawPath = freshAccount()
        try FileManager.default.createDirectory(atPath: rawPath, withIntermediateDirectories: true)
        let rawDatabase = RawSQLCipher(path: rawPath + "/db_sqlite", keyHex: keyHex, cacheSizeKiB: cacheKiB)
        rawDatabase.insert(rawRows)

        var state: UInt64 = 99
        let picks: [BenchMessage] = (0..<10_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return messages[Int(state >> 33) % messages.count]
        }
        let pickIds = picks.map {
            MessageId(
                peerId: PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: $0.peer)), namespace: 0, id: $0.id)
        }
        let get = measure("Postbox get", items: Double(picks.count), unit: "get", runs: 5) {
            try! postbox.readTransactionSync { tx in
                for id in pickIds { blackHole(try tx.getMessage(id)) }
            }
        }
        let rawGet = measure("raw get", items: Double(picks.count), unit: "get", runs: 5) {
            rawDatabase.exec("BEGIN")
            for pick in picks { blackHole(rawDatabase.get(peer: pick.peer, id: pick.id)) }
            rawDatabase.exec("COMMIT")
        }
        let anchors = Array(pickIds.prefix(1000))
        let range = measure("Postbox range", items: Double(anchors.count), unit: "range", runs: 5) {
            try! postbox.readTransactionSync { tx in
                for id in anchors {
                    let index = try tx.messageIndex(id)!
                    blackHole(try tx.messagesAround(peerId: id.peerId, anchor: index, count: 50))
                }
            }
        }

        printTable(
            title: "Hot keys: LMDB (plaintext) vs SQLCipher ValueBox (encrypted), 16-byte keys, 64-byte values",
            peerName: "SQLCipher", HotStoreBench.run(directory: root.path, cacheKiB: cacheKiB))

        if quick {
            printTable(
                title: "Postbox vs raw SQLCipher (quick)", peerName: "raw SQLCipher",
                [
                    Comparison("bulk insert 100,000", ours: ours, peer: raw),
                    Comparison("get", ours: get, peer: rawGet),
                    Comparison("range 50", ours: range, peer: nil),
                ])
            return
        }
        // One million messages, written in transactions of 100,000, then 200 searches of 50 results each.
        let search = try FullTextBench.run(
            root: root.path, cachePath: ProcessInfo.processInfo.environment["POSTBOX_BENCH_1M_PATH"],
            queries: BenchData.queries(200))
        let fts = BenchmarkSupport.Measurement(
            name: "fts", seconds: search.percentile(\.postbox, 0.5), items: 1, unit: "query")
        let ftsAlone = BenchmarkSupport.Measurement(
            name: "fts alone", seconds: search.percentile(\.ftsAlone, 0.5), items: 1, unit: "query")
        let ftsP90 = BenchmarkSupport.Measurement(
            name: "fts p90", seconds: search.percentile(\.postbox, 0.9), items: 1, unit: "query")
        let ftsAloneP90 = BenchmarkSupport.Measurement(
            name: "fts alone p90", seconds: search.percentile(\.ftsAlone, 0.9), items: 1, unit: "query")
        print(
            String(
                format: "FTS over 1,000,000 messages: median %.2f ms, p90 %.2f ms; FTS5 query alone median %.2f ms, "
                    + "p90 %.2f ms; %.1f results/query",
                fts.seconds * 1000, search.percentile(\.postbox, 0.9) * 1000, ftsAlone.seconds * 1000,
                search.percentile(\.ftsAlone, 0.9) * 1000, search.hitsPerQuery))
        FullTextBench.printSlowest(search)

        printTable(
            title: "Postbox vs raw SQLCipher 4 (same binary, same library)", peerName: "raw SQLCipher",
            [
                Comparison(
                    "bulk insert 100,000 messages + FTS, one transaction", ours: ours, peer: raw, goal: "≥ 0.85×"),
                Comparison("point get by id (index + record + author)", ours: get, peer: rawGet),
                Comparison(
                    "FTS query at 1,000,000 messages, 50 results, median (limit: the FTS5 query alone, no message "
                        + "resolved)", ours: fts, peer: ftsAlone, goal: "≤ 1 ms"),
                Comparison(
                    "… p90", ours: ftsP90, peer: ftsAloneP90, goal: "≤ 5 ms"),
            ])
        let grdb = grdbResults()
        printTable(
            title: "Postbox (SQLCipher, encrypted) vs GRDB 7.10 (system SQLite, plain)", peerName: "GRDB",
            [
                Comparison("bulk insert 100,000 messages + FTS (encrypted vs plain)", ours: ours, peer: grdb["insert"]),
                Comparison(
                    "bulk insert 100,000 messages + FTS, Postbox opened without a key (plain vs plain)",
                    ours: inserts.plaintext, peer: grdb["insert"]),
                Comparison("point get by id", ours: get, peer: grdb["get"]),
                Comparison("50 messages around an anchor", ours: range, peer: grdb["range"]),
            ]
                + (search.build.map {
                    [Comparison("write 1,000,000 messages (10 transactions)", ours: $0, peer: grdb["build1M"])]
                } ?? [])
                + [
                    Comparison(
                        "FTS query at 1,000,000 messages (median)", ours: fts, peer: grdb["fts"], goal: "≤ 1 ms median")
                ])
        print("load average at end: \(loadAverage())")
    }

    static let help = """
        postbox-bench: Postbox against raw SQLCipher (and GRDB through postbox-grdb-bench), printing ratio tables.

        usage: postbox-bench [--profile WORKLOAD]
          --profile insert       one Postbox bulk insert of 100,000 messages into a fresh database, untimed (for
                                 callgrind or perf)
          --profile raw-insert   the same rows through raw SQLCipher prepared inserts, untimed
          --profile fts          the million-message search workload alone, with each query's figures
        environment: POSTBOX_BENCH_QUICK=1 (skip the million-message workloads and GRDB),
                     POSTBOX_BENCH_CACHE_KIB (page cache, default 16384),
                     POSTBOX_BENCH_1M_PATH (keep the million-message account there and reuse it: no build figure)
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
            print("postbox-bench: unknown workload '\(workload)' for --profile (insert, raw-insert, fts)")
            exit(2)
        }
    }
}
