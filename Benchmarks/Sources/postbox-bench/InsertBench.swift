import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData

/// The bulk insert of 100,000 messages into a fresh database, timed from open to commit (closing, which
/// checkpoints the WAL, is left out alike), in three comparisons: Postbox encrypted (the product's setting) against
/// raw SQLCipher prepared inserts of the same rows (the limit), Postbox opened without a key against GRDB (plain
/// against plain), and Postbox encrypted against GRDB. Each side's output is the number of message records and
/// text-index rows it left, counted after the timing. The process's CPU time of each Postbox and raw run is kept
/// too: on a loaded machine it shows the work where the wall time shows what a user waits.
enum InsertBench {
    /// CPU time of the whole process (the writer queue runs `transactionSync` on the calling thread).
    static func processCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The comparisons against raw SQLCipher and against GRDB, and a note on CPU time.
    static func run(
        root: String, messages: [StoreMessage], rows: [RawSQLCipher.Row], grdb: GRDBSide?
    ) throws -> (raw: [Comparison], grdb: [Comparison], note: String) {
        var run = 0
        func freshPath() -> String {
            run += 1
            return root + "/insert-\(run)"
        }
        var cpu: [String: [Double]] = [:]
        func postbox(_ encryption: PostboxEncryptionParameters?) -> TimedRun<String> {
            let path = freshPath()
            let cpuStart = processCPUTime()
            let start = now()
            let postbox = try! Postbox.open(
                accountPath: path, encryption: encryption, cacheSizeKiB: PostboxBench.cacheKiB)
            try! postbox.transactionSync { try $0.addMessages(messages) }
            let seconds = now() - start
            cpu[encryption == nil ? "plain" : "postbox", default: []].append(processCPUTime() - cpuStart)
            let output = PostboxBench.rowCounts(postbox, encrypted: encryption != nil)
            try? FileManager.default.removeItem(atPath: path)
            return TimedRun(seconds: seconds, output: output)
        }
        func raw() -> TimedRun<String> {
            let path = freshPath()
            try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let cpuStart = processCPUTime()
            let start = now()
            let database = RawSQLCipher(
                path: path + "/db_sqlite", keyHex: PostboxBench.keyHex, cacheSizeKiB: PostboxBench.cacheKiB)
            database.insert(rows)
            let seconds = now() - start
            cpu["raw", default: []].append(processCPUTime() - cpuStart)
            let output = database.rowCounts
            try? FileManager.default.removeItem(atPath: path)
            return TimedRun(seconds: seconds, output: output)
        }
        let items = Double(messages.count)
        let againstRaw = compareInterleaved(
            "bulk insert 100,000 messages + FTS, one transaction", items: items, unit: "msg", goal: "≥ 0.85×",
            oursTimed: { postbox(PostboxBench.key) }, peerTimed: raw)
        func cpuMedian(_ side: String) -> Double { median((cpu[side] ?? [0]).sorted()) }
        let note = String(
            format: "bulk insert, process CPU time (median of every run, warm-up included): Postbox %.3f s, raw "
                + "SQLCipher %.3f s: ratio %.2f×", cpuMedian("postbox"), cpuMedian("raw"),
            cpuMedian("raw") / cpuMedian("postbox"))
        guard let grdb else { return ([againstRaw], [], note) }
        let grdbInsert = { grdb.run("insert", ["count": messages.count]) }
        let plain = compareInterleaved(
            "bulk insert 100,000 messages + FTS, Postbox opened without a key (plain vs plain)", items: items,
            unit: "msg", oursTimed: { postbox(nil) }, peerTimed: grdbInsert)
        let encrypted = compareInterleaved(
            "bulk insert 100,000 messages + FTS (Postbox encrypted vs GRDB plain)", items: items, unit: "msg",
            oursTimed: { postbox(PostboxBench.key) }, peerTimed: grdbInsert)
        return ([againstRaw], [plain, encrypted], note)
    }
}

/// The 1-, 5- and 15-minute load averages, for the notes.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "?"
}
