import BenchmarkSupport
import Foundation
import GRDB
import PostboxBenchData

/// GRDB 7.10 (system SQLite) as the peer of postbox-views-bench: the live-view workloads done with
/// `ValueObservation`, measuring write-to-emit latency — from just before the write transaction that inserts one
/// message (and updates its chat row) to the moment the observer of that chat receives a value holding the message.
/// It runs only as postbox-views-bench's peer: with `--serve` it stores the data set, then answers one JSON command
/// per line — `info`, `write` (the baseline) or `measure` (a workload, `tracking` or `constant`) — each with the
/// median latency of that round's writes (`seconds`) and a checksum of the messages delivered (`output`).
@main
enum PostboxViewsGRDBPeer {
    static func main() throws {
        checkCommandLine(
            """
            usage: postbox-views-grdb-peer --serve [--cache-kib N] [--warmup N] [--iterations N]

            GRDB ValueObservation as postbox-views-bench's peer (JSON commands on stdin, one answer per line);
            --warmup / --iterations: untimed and timed writes per round (defaults 5 and 60).
            """, accepted: ["--serve"], takingValue: ["--cache-kib", "--warmup", "--iterations"])
        guard CommandLine.arguments.contains("--serve") else {
            print("postbox-views-grdb-peer: run by postbox-views-bench as its peer (`--serve`); see --help")
            return
        }
        let directory = NSTemporaryDirectory() + "postbox-views-grdb-peer-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let database = try ViewDatabase(
            path: directory + "/views.sqlite", cacheKiB: count(after: "--cache-kib", default: 16_384))
        let run = LatencyRun(
            database: database, warmup: count(after: "--warmup", default: 5),
            iterations: count(after: "--iterations", default: 60))
        while let line = readLine() {
            var answer: [String: Any]
            do {
                let command = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                switch command["op"] as? String {
                case "info":
                    let version =
                        try database.pool.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?"
                    answer = ["sqliteVersion": version, "queryPlans": try database.queryPlans()]
                case "write":
                    let (summary, found) = try run.measureWriteOnly()
                    answer = ["seconds": summary.median, "p90": summary.p90, "output": found.text]
                case "measure":
                    guard let workload = ViewWorkload(rawValue: command["workload"] as? String ?? ""),
                        let mode = ObservationMode(rawValue: command["mode"] as? String ?? "")
                    else { throw BenchError("bad command \(line)") }
                    let (summary, found) = try run.measure(workload, mode: mode)
                    answer = ["seconds": summary.median, "p90": summary.p90, "output": found.text]
                default:
                    throw BenchError("bad command \(line)")
                }
            } catch {
                answer = ["error": "\(error)"]
            }
            FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: answer) + Data([0x0A]))
        }
    }
}
