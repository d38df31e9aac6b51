import BenchmarkSupport
import Foundation
import GRDB
import PostboxBenchData

/// GRDB 7.10 (system SQLite) as the peer of postbox-views-bench: the live-view workloads done with
/// `ValueObservation`, measuring write-to-emit latency — from just before the write transaction that inserts one
/// message (and updates its chat row) to the moment the observer of that chat receives a value holding the message.
/// With `--json` it prints one `LatencySummary` per line for postbox-views-bench; `--table` prints its own table.
/// Options: `--iterations N` (default 300) and `--warmup N` (default 30) per workload.
@main
enum PostboxViewsGRDBPeer {
    struct Info: Codable {
        var sqliteVersion: String
        var queryPlans: [String]
    }

    static func intOption(_ name: String, default value: Int) -> Int {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
            let parsed = Int(arguments[index + 1]), parsed > 0
        else { return value }
        return parsed
    }

    static func main() throws {
        let json = CommandLine.arguments.contains("--json")
        guard json || CommandLine.arguments.contains("--table") else {
            print("postbox-views-grdb-peer: run by postbox-views-bench (--json); `--table` prints GRDB's figures alone")
            return
        }
        let directory = NSTemporaryDirectory() + "postbox-views-grdb-peer-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let setupStart = now()
        let database = try ViewDatabase(path: directory + "/views.sqlite")
        let setup = now() - setupStart
        let version = try database.pool.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?"
        let info = Info(sqliteVersion: version, queryPlans: try database.queryPlans())

        let run = LatencyRun(
            database: database, warmup: intOption("--warmup", default: 30),
            iterations: intOption("--iterations", default: 300))
        var results: [LatencySummary] = [try run.measureWriteOnly()]
        for mode in ObservationMode.allCases {
            for workload in ViewWorkload.allCases {
                results.append(try run.measure(workload, mode: mode))
            }
        }

        if json {
            let encoder = JSONEncoder()
            print(String(decoding: try encoder.encode(info), as: UTF8.self))
            for result in results { print(String(decoding: try encoder.encode(result), as: UTF8.self)) }
            return
        }
        printMachine()
        print(String(format: "GRDB 7.10 on system SQLite %@; data set stored in %.1f s", version, setup))
        for plan in info.queryPlans { print("plan: \(plan)") }
        print("\n| workload | observation | median | p90 | mean | writes |")
        print("|---|---|---:|---:|---:|---:|")
        for result in results {
            let workload =
                result.name == ViewBenchData.writeOnlyName
                ? "write transaction alone, no observation"
                : ViewWorkload(rawValue: String(result.name.prefix(1)))?.title ?? result.name
            let mode = result.name.hasSuffix("-constant") ? "trackingConstantRegion" : "tracking"
            print(
                String(
                    format: "| %@ | %@ | %.3f ms | %.3f ms | %.3f ms | %d |", workload, mode, result.median * 1000,
                    result.p90 * 1000, result.mean * 1000, result.iterations))
        }
    }
}
