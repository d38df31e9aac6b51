import BenchmarkSupport
import Foundation
import HotStoreExperiment
import SQLite
import ValueBox

/// The hot-key experiment (checking the claim "LMDB is 5–10× faster than SQLite for key lookups"): the same 100,000
/// 16-byte keys with 64-byte values in LMDB and in a SQLCipher ValueBox table, then random point reads.
enum HotStoreBench {
    static func run(directory: String, cacheKiB: Int) -> [Comparison] {
        var state: UInt64 = 5
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        let pairs: [(key: [UInt8], value: [UInt8])] = (0..<100_000).map { _ in
            (
                withUnsafeBytes(of: (next(), next())) { Array($0) },
                (0..<8).flatMap { _ in withUnsafeBytes(of: next()) { Array($0) } }
            )
        }
        let lookups: [[UInt8]] = (0..<100_000).map { _ in pairs[Int(next() >> 33) % pairs.count].key }
        var round = 0
        func stores() -> (LMDBHotStore, SqliteHotStore) {
            round += 1
            let key = Database.CipherKey(key: Array(repeating: 1, count: 32), salt: Array(repeating: 2, count: 16))
            let box = try! SqliteValueBox(path: directory + "/hot-\(round).sqlite", key: key, cacheSizeKiB: cacheKiB)
            return (
                try! LMDBHotStore(path: directory + "/hot-\(round).lmdb"), SqliteHotStore(valueBox: box, tableId: 100)
            )
        }
        let writeLMDB = measure("LMDB write", items: Double(pairs.count), unit: "key", runs: 3) {
            try! stores().0.set(pairs)
        }
        let writeSQL = measure("SQLCipher write", items: Double(pairs.count), unit: "key", runs: 3) {
            try! stores().1.set(pairs)
        }
        let (lmdb, sqlite) = stores()
        try! lmdb.set(pairs)
        try! sqlite.set(pairs)
        // Both stores must return the stored values (the experiment compares equals).
        try! lmdb.read(Array(lookups.prefix(1000))) { key, value in precondition(value != nil) }
        try! sqlite.read(Array(lookups.prefix(1000))) { key, value in
            precondition(value == (try! lmdb.get(key)))
        }
        let readLMDB = measure("LMDB get", items: Double(lookups.count), unit: "get", runs: 5) {
            try! lmdb.read(lookups) { _, value in blackHole(value) }
        }
        let readSQL = measure("SQLCipher get", items: Double(lookups.count), unit: "get", runs: 5) {
            try! sqlite.read(lookups) { _, value in blackHole(value) }
        }
        let singleLMDB = measure("LMDB get, own txn", items: 10_000, unit: "get", runs: 5) {
            for key in lookups.prefix(10_000) { blackHole(try! lmdb.get(key)) }
        }
        let singleSQL = measure("SQLCipher get, own txn", items: 10_000, unit: "get", runs: 5) {
            for key in lookups.prefix(10_000) { blackHole(try! sqlite.get(key)) }
        }
        return [
            Comparison(
                "100,000 random gets in one read transaction", ours: readLMDB, peer: readSQL, goal: "seed: 5–10×"),
            Comparison("10,000 gets, one read transaction each", ours: singleLMDB, peer: singleSQL),
            Comparison("write 100,000 keys in one transaction", ours: writeLMDB, peer: writeSQL),
        ]
    }
}
