import BenchmarkSupport
import Foundation
import GRDB
import PostboxBenchData

/// GRDB 7.10 on the system SQLite, doing Postbox's benchmark workloads the way a GRDB user would: a messages table
/// keyed by (peer, namespace, id) with a (peer, timestamp) index, an FTS5 table with the same tokenizer, WAL, records
/// inserted with `insert(db)` in one write transaction, and the page cache postbox-bench gives Postbox
/// (`--cache-kib`, `PRAGMA cache_size` on every connection). It runs only as postbox-bench's peer: with `--serve` it
/// answers one JSON command per line (`GRDBServer`), timing each workload with its own clock, so postbox-bench
/// interleaves the two sides round by round (`PeerProcess`) without counting this process's start.
@main
enum PostboxGRDBBench {
    static func main() throws {
        checkCommandLine(
            """
            usage: postbox-grdb-bench --serve [--cache-kib N]

            GRDB 7.10 as postbox-bench's peer: reads JSON commands (insert, load, get, range, build, fts) on stdin and
            answers each with {"seconds": …, "output": "…"} on stdout. `make bench-postbox` runs it through
            postbox-bench; alone it does nothing.
            """, accepted: ["--serve"], takingValue: ["--cache-kib"])
        guard CommandLine.arguments.contains("--serve") else {
            // `make bench` runs every *-bench; postbox-bench runs this one itself and prints the ratios.
            print("postbox-grdb-bench: run by postbox-bench as its peer (`--serve`); see --help")
            return
        }
        let directory = NSTemporaryDirectory() + "postbox-grdb-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = GRDBServer(directory: directory, cacheKiB: count(after: "--cache-kib", default: 16_384))
        while let line = readLine() {
            let answer: [String: Any]
            do {
                guard let command = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    throw GRDBServer.BadCommand(line: line)
                }
                answer = try server.handle(command)
            } catch {
                answer = ["error": "\(error)"]
            }
            FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: answer) + Data([0x0A]))
        }
    }
}
