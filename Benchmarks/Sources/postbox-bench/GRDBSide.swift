import BenchmarkSupport
import Foundation

/// GRDB 7.10 on the system SQLite as the peer of postbox-bench's comparisons: postbox-grdb-bench, built beside this
/// binary (GRDB links libsqlite3, which must never share a binary with SQLCipher), kept running with `--serve` and
/// the same page cache as Postbox. Each command runs one workload there and comes back with the seconds its own clock
/// measured (so neither the process start nor the pipe is counted) and an output text compared with Postbox's.
struct GRDBSide {
    let peer: PeerProcess

    /// Starts the peer; nil (with a note) when it is not built.
    static func start(cacheKiB: Int) -> GRDBSide? {
        do {
            guard let peer = try PeerProcess(sibling: "postbox-grdb-bench", arguments: ["--cache-kib", "\(cacheKiB)"])
            else {
                print("(postbox-grdb-bench not built: `make bench-postbox` builds both; GRDB rows left out)")
                return nil
            }
            return GRDBSide(peer: peer)
        } catch {
            print("(postbox-grdb-bench did not start: \(error); GRDB rows left out)")
            return nil
        }
    }

    /// Runs `op` on the peer; a peer that fails ends the benchmark with its error.
    func run(_ op: String, _ arguments: [String: Any] = [:]) -> TimedRun<String> {
        do {
            return try peer.timed(arguments.merging(["op": op]) { _, new in new })
        } catch {
            FileHandle.standardError.write(Data("error: postbox-grdb-bench \(op): \(error)\n".utf8))
            exit(1)
        }
    }

    /// Runs `op` and returns the whole answer (for fields beside seconds and output).
    func ask(_ op: String, _ arguments: [String: Any] = [:]) -> [String: Any] {
        do {
            let answer = try peer.ask(arguments.merging(["op": op]) { _, new in new })
            if let error = answer["error"] {
                FileHandle.standardError.write(Data("error: postbox-grdb-bench \(op): \(error)\n".utf8))
                exit(1)
            }
            return answer
        } catch {
            FileHandle.standardError.write(Data("error: postbox-grdb-bench \(op): \(error)\n".utf8))
            exit(1)
        }
    }
}
