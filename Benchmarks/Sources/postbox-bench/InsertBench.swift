import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData

/// The bulk insert of 100,000 messages, three ways taken in turn within each round so that a change in the
/// machine's load hits all three alike: Postbox encrypted (the product's setting), raw SQLCipher prepared inserts of
/// the same rows (the limit), and Postbox opened without a key (plaintext, the like-for-like peer of GRDB). Each run
/// opens a fresh database and is timed from open to commit; closing (which checkpoints the WAL) is left out of every
/// timing alike. Wall time and the process's CPU time are both kept: on a loaded machine the CPU time shows the
/// work, the wall time what a user waits.
enum InsertBench {
    /// Medians over the rounds.
    struct Result {
        let postbox: BenchmarkSupport.Measurement
        let raw: BenchmarkSupport.Measurement
        let plaintext: BenchmarkSupport.Measurement
        let postboxCPU: Double
        let rawCPU: Double
        let plaintextCPU: Double
        /// The median over rounds of each round's Postbox/raw throughput ratio (wall).
        let pairedRatio: Double
    }

    /// CPU time of the whole process (the writer queue runs `transactionSync` on the calling thread).
    static func processCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// One warm-up round, then `rounds` measured ones.
    static func run(
        root: String, messages: [StoreMessage], rows: [RawSQLCipher.Row], rounds: Int = 5
    ) throws -> Result {
        var run = 0
        func freshPath() -> String {
            run += 1
            return root + "/insert-\(run)"
        }
        func timed(_ body: () throws -> AnyObject) rethrows -> (wall: Double, cpu: Double) {
            let cpu = processCPUTime()
            let start = now()
            let database = try body()
            let result = (now() - start, processCPUTime() - cpu)
            withExtendedLifetime(database) {}
            return result
        }
        func postbox(_ encryption: PostboxEncryptionParameters?) throws -> (wall: Double, cpu: Double) {
            let path = freshPath()
            return try timed {
                let postbox = try Postbox.open(
                    accountPath: path, encryption: encryption, cacheSizeKiB: PostboxBench.cacheKiB)
                try postbox.transactionSync { try $0.addMessages(messages) }
                return postbox
            }
        }
        func raw() throws -> (wall: Double, cpu: Double) {
            let path = freshPath()
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return timed {
                let database = RawSQLCipher(
                    path: path + "/db_sqlite", keyHex: PostboxBench.keyHex, cacheSizeKiB: PostboxBench.cacheKiB)
                database.insert(rows)
                return database
            }
        }
        var ours: [(wall: Double, cpu: Double)] = []
        var peer: [(wall: Double, cpu: Double)] = []
        var plain: [(wall: Double, cpu: Double)] = []
        for round in 0...rounds {
            let o = try postbox(PostboxBench.key)
            let r = try raw()
            let p = try postbox(nil)
            if round > 0 {
                ours.append(o)
                peer.append(r)
                plain.append(p)
            }
        }
        let count = Double(messages.count)
        func measurement(_ name: String, _ samples: [(wall: Double, cpu: Double)]) -> BenchmarkSupport.Measurement {
            BenchmarkSupport.Measurement(name: name, seconds: median(samples.map(\.wall)), items: count, unit: "msg")
        }
        return Result(
            postbox: measurement("Postbox insert", ours), raw: measurement("raw insert", peer),
            plaintext: measurement("Postbox plaintext insert", plain), postboxCPU: median(ours.map(\.cpu)),
            rawCPU: median(peer.map(\.cpu)), plaintextCPU: median(plain.map(\.cpu)),
            pairedRatio: median(zip(ours, peer).map { $1.wall / $0.wall }))
    }
}

/// The 1-, 5- and 15-minute load averages, for the notes.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "?"
}
