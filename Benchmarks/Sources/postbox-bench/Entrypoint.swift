import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import PostboxTesting

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

        let ours = measure("Postbox insert", items: Double(count), unit: "msg", runs: 3) {
            let postbox = try! Postbox.open(accountPath: freshAccount(), encryption: key, cacheSizeKiB: cacheKiB)
            try! postbox.transactionSync { try $0.addMessages(storeMessages) }
        }
        let raw = measure("raw insert", items: Double(count), unit: "msg", runs: 3) {
            let path = freshAccount()
            try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            RawSQLCipher(path: path + "/db_sqlite", keyHex: keyHex, cacheSizeKiB: cacheKiB).insert(rawRows)
        }

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
        let big = try Postbox.open(accountPath: freshAccount(), encryption: key, cacheSizeKiB: cacheKiB)
        let buildStart = now()
        for batch in stride(from: 0, to: 1_000_000, by: 100_000) {
            let slice = store(BenchData.messages(from: batch, count: 100_000))
            try big.transactionSync { try $0.addMessages(slice) }
        }
        let build = BenchmarkSupport.Measurement(
            name: "build", seconds: now() - buildStart, items: 1_000_000, unit: "msg")
        var times: [Double] = []
        var hits = 0
        try big.readTransactionSync { tx in
            for query in BenchData.queries(200) {
                let start = now()
                let found = try tx.searchMessages(query, limit: 50)
                times.append(now() - start)
                hits += found.count
            }
        }
        times.sort()
        let fts = BenchmarkSupport.Measurement(name: "fts", seconds: times[times.count / 2], items: 1, unit: "query")
        print(
            String(
                format: "FTS over 1,000,000 messages: median %.2f ms, p90 %.2f ms, %.1f results/query",
                times[times.count / 2] * 1000, times[times.count * 9 / 10] * 1000, Double(hits) / Double(times.count)))

        printTable(
            title: "Postbox vs raw SQLCipher 4 (same binary, same library)", peerName: "raw SQLCipher",
            [
                Comparison(
                    "bulk insert 100,000 messages + FTS, one transaction", ours: ours, peer: raw, goal: "≥ 0.7×"),
                Comparison("point get by id (index + record + author)", ours: get, peer: rawGet),
            ])
        let grdb = grdbResults()
        printTable(
            title: "Postbox (SQLCipher, encrypted) vs GRDB 7.10 (system SQLite, plain)", peerName: "GRDB",
            [
                Comparison("bulk insert 100,000 messages + FTS", ours: ours, peer: grdb["insert"], goal: "≥ 2×"),
                Comparison("point get by id", ours: get, peer: grdb["get"]),
                Comparison("50 messages around an anchor", ours: range, peer: grdb["range"]),
                Comparison("write 1,000,000 messages (10 transactions)", ours: build, peer: grdb["build1M"]),
                Comparison(
                    "FTS query at 1,000,000 messages (median)", ours: fts, peer: grdb["fts"], goal: "≤ 10 ms median"),
            ])
    }
}
