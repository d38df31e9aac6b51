import BenchmarkSupport
import Foundation

/// The GRDB side of the table: runs postbox-views-grdb-peer (built next to this binary; GRDB links the system
/// libsqlite3, which must never share a binary with SQLCipher) and reads back its JSON lines.
struct GRDBPeer {
    /// What the peer reports besides latencies.
    struct Info: Decodable {
        var sqliteVersion: String
        var queryPlans: [String]
    }

    var info: Info?
    /// Latencies by name: "a", "b", "c" (`ValueObservation.tracking`), "a-constant", … (`trackingConstantRegion`).
    var results: [String: LatencySummary] = [:]

    /// Runs the peer with the same iteration counts; an empty result when it is not built.
    static func run(warmup: Int, iterations: Int) throws -> GRDBPeer {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("postbox-views-grdb-peer")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            print("(postbox-views-grdb-peer not built: `make bench BENCH=postbox-views-bench` builds both)")
            return GRDBPeer()
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--json", "--warmup", String(warmup), "--iterations", String(iterations)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var peer = GRDBPeer()
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let result = try? decoder.decode(LatencySummary.self, from: line) {
                peer.results[result.name] = result
            } else if let info = try? decoder.decode(Info.self, from: line) {
                peer.info = info
            }
        }
        if process.terminationStatus != 0 {
            print("(postbox-views-grdb-peer exited with \(process.terminationStatus))")
        }
        return peer
    }
}
