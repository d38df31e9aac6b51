import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import ValueBox

/// The search workload at one million messages. `compare` (the benchmark) builds the account on both sides in
/// interleaved rounds, then times search four ways, each side returning a checksum of the messages found: the hot
/// query set again and again against the FTS5 query alone on the same file (the limit) and against GRDB; fresh
/// query sets — queries neither database has answered before, a new set each round — against GRDB; and fresh sets
/// with both sides' connections reopened and their files dropped from the OS page cache (`PageCache`) before each
/// round. `run` (`--profile fts`) is the per-query view of the hot set, for finding slow queries.
enum FullTextBench {
    /// One query's figures.
    struct Sample {
        let query: String
        let postbox: Double
        let ftsAlone: Double
        let hits: Int
    }

    /// The figures of one run over every query.
    struct Result {
        let build: BenchmarkSupport.Measurement?
        let samples: [Sample]

        func percentile(_ keyPath: KeyPath<Sample, Double>, _ fraction: Double) -> Double {
            let sorted = samples.map { $0[keyPath: keyPath] }.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        var hitsPerQuery: Double { Double(samples.reduce(0) { $0 + $1.hits }) / Double(samples.count) }
    }

    static let million = 1_000_000
    /// Messages in the search account: a million, or 100,000 under `make bench-check` (which checks that both sides
    /// do the same work, not how fast).
    static var accountSize: Int { BenchmarkMethod.isCheck ? 100_000 : million }
    /// Queries in each fresh set.
    static let freshSetSize = 100

    /// Opens the million-message account: under `cachePath` when it was completed there before (no build figure),
    /// otherwise built (into `cachePath`, or a fresh directory under `root`) in transactions of 100,000.
    static func openAccount(root: String, cachePath: String?) throws -> (Postbox, BenchmarkSupport.Measurement?) {
        let key = PostboxBench.key
        let cacheKiB = PostboxBench.cacheKiB
        let path = cachePath ?? root + "/account-1M"
        let marker = path + "/complete"
        if cachePath != nil, FileManager.default.fileExists(atPath: marker) {
            return (try Postbox.open(accountPath: path, encryption: key, cacheSizeKiB: cacheKiB), nil)
        }
        try? FileManager.default.removeItem(atPath: path)
        let big = try Postbox.open(accountPath: path, encryption: key, cacheSizeKiB: cacheKiB)
        let buildStart = now()
        for batch in stride(from: 0, to: million, by: 100_000) {
            let slice = PostboxBench.store(BenchData.messages(from: batch, count: 100_000))
            try big.transactionSync { try $0.addMessages(slice) }
        }
        let build = BenchmarkSupport.Measurement(
            name: "build", seconds: now() - buildStart, items: Double(million), unit: "msg")
        if cachePath != nil { _ = FileManager.default.createFile(atPath: marker, contents: Data()) }
        return (big, build)
    }

    /// Writes `count` messages into a fresh account at `path` in transactions of 100,000; the seconds from open to
    /// the last commit, and the account (checkpointed after the timing).
    static func build(path: String, count: Int) throws -> (Postbox, TimedRun<String>) {
        try? FileManager.default.removeItem(atPath: path)
        let start = now()
        let postbox = try Postbox.open(
            accountPath: path, encryption: PostboxBench.key, cacheSizeKiB: PostboxBench.cacheKiB)
        for batch in stride(from: 0, to: count, by: 100_000) {
            let slice = PostboxBench.store(BenchData.messages(from: batch, count: min(100_000, count - batch)))
            try postbox.transactionSync { try $0.addMessages(slice) }
        }
        let seconds = now() - start
        try postbox.checkpoint(truncate: true)
        return (postbox, TimedRun(seconds: seconds, output: PostboxBench.rowCounts(postbox, encrypted: true)))
    }

    /// The search comparisons: the build (against GRDB) and the four search rows; with no GRDB peer, the account is
    /// built once untimed and only the row against the FTS5 query alone is measured.
    static func compare(root: String, grdb: GRDBSide?) throws -> (limit: [Comparison], grdb: [Comparison]) {
        let count = accountSize
        let size = count == million ? "1,000,000 messages" : "\(count / 1000),000 messages"
        var postbox: Postbox?
        var builds = 0
        func ourBuild() -> TimedRun<String> {
            postbox = nil
            if builds > 0 { try? FileManager.default.removeItem(atPath: root + "/account-1M-\(builds)") }
            builds += 1
            let (built, run) = try! build(path: root + "/account-1M-\(builds)", count: count)
            postbox = built
            return run
        }
        var grdbRows: [Comparison] = []
        if let grdb {
            grdbRows.append(
                compareInterleaved(
                    "write \(size) (transactions of 100,000)", items: Double(count), unit: "msg",
                    rounds: 3, oursTimed: ourBuild, peerTimed: { grdb.run("build", ["count": count]) }))
        } else {
            _ = ourBuild()
        }
        guard var account = postbox else { throw BenchFailure("no search account") }
        let hot = BenchData.queries(200)
        func search(_ queries: [String]) -> String {
            try! account.readTransactionSync { tx in
                var found = FoundChecksum()
                for query in queries {
                    for message in try tx.searchMessages(query, limit: 50) {
                        found.add(
                            peer: message.id.peerId.id.rawValue, id: message.id.id, textLength: message.text.utf8.count)
                    }
                }
                return found.text
            }
        }
        // The limit: the FTS5 query alone on a raw connection to the same file, hit counts compared query by query.
        let raw = RawSQLCipher(
            path: account.databasePath, keyHex: PostboxBench.keyHex, cacheSizeKiB: PostboxBench.cacheKiB,
            createTables: false)
        defer { raw.close() }
        let expressions = hot.map { SqliteValueBox.matchExpression(query: $0, collectionId: nil, tags: []) ?? "" }
        let ourCounts = {
            try! account.readTransactionSync { tx in
                var counts = FoundChecksum()
                for query in hot { counts.add(count: try tx.searchMessages(query, limit: 50).count) }
                return counts.text
            }
        }
        let rawCounts = {
            raw.exec("BEGIN")
            defer { raw.exec("COMMIT") }
            var counts = FoundChecksum()
            for expression in expressions { counts.add(count: raw.fullTextRowIds(expression, limit: 50).count) }
            return counts.text
        }
        let limit = compareInterleaved(
            "FTS query at \(size), 50 results, the \(hot.count) hot queries (limit: the FTS5 query alone, no message "
                + "resolved)", items: Double(hot.count), unit: "query", ours: ourCounts, peer: rawCounts)
        guard let grdb else { return ([limit], grdbRows) }
        grdbRows.append(
            compareInterleaved(
                "FTS query at \(size), the \(hot.count) hot queries, run every round", items: Double(hot.count),
                unit: "query", goal: "≤ 1 ms per query", oursTimed: { timedRun { search(hot) } },
                peerTimed: { grdb.run("fts", ["queries": hot]) }))
        let fresh = freshSetSize
        grdbRows.append(
            compareInterleavedRounds(
                "FTS query, first seen: a new set of \(fresh) queries each round", items: Double(fresh),
                unit: "query",
                oursTimed: { round in
                    let queries = BenchData.freshQueries(set: round, size: fresh)
                    return timedRun { search(queries) }
                },
                peerTimed: { round in
                    grdb.run("fts", ["queries": BenchData.freshQueries(set: round, size: fresh)])
                }))
        // Cold: each side opens new connections on its file (the schema read), the files' cached pages are
        // written back and dropped, then a set neither has seen is timed. Sets continue after the first-seen rows'.
        let firstColdSet = BenchmarkMethod.rounds(7) + 1
        var resident: [String] = []
        let files = PageCache.sqliteFiles(account.databasePath)
        let accountPath = root + "/account-1M-\(builds)"
        grdbRows.append(
            compareInterleavedRounds(
                "FTS query, cold: connections reopened, files dropped from the page cache, a new set of \(fresh) "
                    + "queries each round", items: Double(fresh), unit: "query",
                oursTimed: { round in
                    postbox = nil
                    account = try! Postbox.open(
                        accountPath: accountPath, encryption: PostboxBench.key, cacheSizeKiB: PostboxBench.cacheKiB)
                    _ = try! account.readTransactionSync { try $0.getMessage(PostboxBench.messageId(peer: 1, id: 1)) }
                    let left = PageCache.drop(files)
                    resident.append("Postbox \(left.resident)/\(left.total)")
                    let queries = BenchData.freshQueries(set: firstColdSet + round, size: fresh)
                    return timedRun { search(queries) }
                },
                peerTimed: { round in
                    let answer = grdb.ask(
                        "fts",
                        [
                            "queries": BenchData.freshQueries(set: firstColdSet + round, size: fresh), "cold": true,
                        ])
                    resident.append("GRDB \(answer["resident"] ?? "?")/\(answer["pages"] ?? "?")")
                    return TimedRun(
                        seconds: answer["seconds"] as? Double ?? .nan, output: answer["output"] as? String ?? "?")
                }))
        print("cold rounds, pages still cached after dropping (resident/total): " + resident.joined(separator: ", "))
        return ([limit], grdbRows)
    }

    /// Runs every query through Postbox and through the FTS5 query alone, alternating, after one warm-up pass.
    static func run(root: String, cachePath: String?, queries: [String], limit: Int = 50) throws -> Result {
        let (postbox, build) = try openAccount(root: root, cachePath: cachePath)
        try postbox.checkpoint(truncate: true)
        let raw = RawSQLCipher(
            path: postbox.databasePath, keyHex: PostboxBench.keyHex, cacheSizeKiB: PostboxBench.cacheKiB,
            createTables: false)
        defer { raw.close() }
        let expressions = queries.map {
            SqliteValueBox.matchExpression(query: $0, collectionId: nil, tags: []) ?? ""
        }
        var samples: [Sample] = []
        try postbox.readTransactionSync { tx in
            raw.exec("BEGIN")
            defer { raw.exec("COMMIT") }
            for pass in 0..<2 {
                for (query, expression) in zip(queries, expressions) {
                    let start = now()
                    let found = try tx.searchMessages(query, limit: limit)
                    let middle = now()
                    let ids = raw.fullTextRowIds(expression, limit: limit)
                    let end = now()
                    precondition(ids.count == found.count, "\(query): \(ids.count) ids, \(found.count) messages")
                    if pass == 1 {
                        samples.append(
                            Sample(query: query, postbox: middle - start, ftsAlone: end - middle, hits: found.count))
                    }
                }
            }
        }
        return Result(build: build, samples: samples)
    }

    /// The slowest queries, for the notes: what makes a search slow.
    static func printSlowest(_ result: Result, count: Int = 12) {
        print("\nslowest queries (Postbox ms / FTS5 alone ms / hits):")
        for sample in result.samples.sorted(by: { $0.postbox > $1.postbox }).prefix(count) {
            print(
                String(
                    format: "  %-12@ %6.2f  %6.2f  %d", sample.query as NSString, sample.postbox * 1000,
                    sample.ftsAlone * 1000, sample.hits))
        }
    }
}

/// The benchmark could not go on.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
