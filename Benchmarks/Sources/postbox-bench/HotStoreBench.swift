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
        // Outputs: keys written (counted by reading them back after the timing), and a checksum of the values read.
        func checksum(_ value: [UInt8]?) -> UInt64 {
            value.map { $0.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } ?? 0
        }
        let keys = pairs.map(\.key)
        func stored(_ store: HotKeyValueStore) -> Int {
            var found = 0
            try! store.read(keys) { _, value in found += value == nil ? 0 : 1 }
            return found
        }
        let writeLMDB = {
            let store = stores().0
            let run = timedRun { try! store.set(pairs) }
            return TimedRun(seconds: run.seconds, output: stored(store))
        }
        let writeSQL = {
            let store = stores().1
            let run = timedRun { try! store.set(pairs) }
            return TimedRun(seconds: run.seconds, output: stored(store))
        }
        let write = compareInterleaved(
            "write 100,000 keys in one transaction", items: Double(pairs.count), unit: "key", rounds: 3,
            oursTimed: writeLMDB, peerTimed: writeSQL)
        let (lmdb, sqlite) = stores()
        try! lmdb.set(pairs)
        try! sqlite.set(pairs)
        func batch(_ store: HotKeyValueStore) -> UInt64 {
            var sum: UInt64 = 0
            try! store.read(lookups) { _, value in sum &+= checksum(value) }
            return sum
        }
        func single(_ store: HotKeyValueStore) -> UInt64 {
            var sum: UInt64 = 0
            for key in lookups.prefix(10_000) { sum &+= checksum(try! store.get(key)) }
            return sum
        }
        return [
            compareInterleaved(
                "100,000 random gets in one read transaction", items: Double(lookups.count), unit: "get",
                goal: "seed: 5–10×", ours: { batch(lmdb) }, peer: { batch(sqlite) }),
            compareInterleaved(
                "10,000 gets, one read transaction each", items: 10_000, unit: "get", ours: { single(lmdb) },
                peer: { single(sqlite) }),
            write,
        ]
    }
}
