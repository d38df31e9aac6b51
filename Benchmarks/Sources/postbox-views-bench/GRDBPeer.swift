import BenchmarkSupport
import Foundation

/// The GRDB side: postbox-views-grdb-peer (built next to this binary; GRDB links the system libsqlite3, which must
/// never share a binary with SQLCipher) kept running with `--serve`, with the same page cache and writes per round.
/// Each `measure` is one round of one workload there, timed by the peer's own clock.
struct GRDBPeer {
    let peer: PeerProcess

    /// Starts the peer (it stores the data set before answering); nil with a note when it is not built.
    static func start(cacheKiB: Int, warmup: Int, iterations: Int) throws -> GRDBPeer? {
        guard
            let peer = try PeerProcess(
                sibling: "postbox-views-grdb-peer",
                arguments: ["--cache-kib", "\(cacheKiB)", "--warmup", "\(warmup)", "--iterations", "\(iterations)"])
        else {
            print("(postbox-views-grdb-peer not built: `make bench BENCH=postbox-views-bench` builds both)")
            return nil
        }
        return GRDBPeer(peer: peer)
    }

    /// SQLite's version and the plans of the view queries.
    func info() throws -> (version: String, plans: [String]) {
        let answer = try peer.ask(["op": "info"])
        return (answer["sqliteVersion"] as? String ?? "?", answer["queryPlans"] as? [String] ?? [])
    }

    /// One round: the median write-to-emit latency of its writes and the checksum of the messages delivered.
    func round(_ command: [String: Any]) -> TimedRun<String> {
        do {
            return try peer.timed(command)
        } catch {
            FileHandle.standardError.write(Data("error: postbox-views-grdb-peer: \(error)\n".utf8))
            exit(1)
        }
    }
}
