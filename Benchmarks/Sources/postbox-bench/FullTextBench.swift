import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import ValueBox

/// The search workload at one million messages: the account (built, or reused from POSTBOX_BENCH_1M_PATH), then
/// the same 200 queries through `searchMessages` (hits resolved to messages) and through the FTS5 query alone on a
/// raw SQLCipher connection to the same file (the limit: the hits' rowids only, nothing resolved).
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
