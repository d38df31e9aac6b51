import BenchmarkSupport
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
import Network
import ServerBenchSupport

/// What clients can make a tg-server process hold, measured on a real release tg-server over loopback: its memory
/// with 2,000 idle connections open and after they close; what a 2,000-connection flood from one address gets; how
/// long a connection that sends half a frame and stalls lives; and the memory a msg_resend_req / msgs_state_req
/// attack reaches. Prints one table of figures (there is no peer: the bound is the point).
@main
enum ServerLimitsBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: server-limits-bench

            What clients can make a release tg-server process hold: memory with 2,000 idle connections, a connection flood
            from one address, a half-frame stall, and msg_resend_req / msgs_state_req attacks. Needs the release tg-server.
            """)
        printMachine()
        raiseOpenFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        var rows: [(String, String)] = []

        // 1. 2,000 idle MTProto connections (one key, each with a session and a ping answered).
        do {
            let server = try ServerProcess(arguments: [
                "--max-connections-per-address", "4096", "--max-connections", "4096",
            ])
            defer { server.stop() }
            let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .abridged)
            let first = try await MTProtoConnection.connect(to: endpoint, publicKeys: [server.publicKey], group: group)
            _ = try await first.invoke(MTProto.functions.ping(pingId: 0))
            let before = server.rss()
            var open: [MTProtoConnection] = []
            for i in 0..<2000 {
                let connection = try await MTProtoConnection.connect(
                    to: endpoint, publicKeys: [], savedKey: first.key, group: group)
                _ = try await connection.invoke(MTProto.functions.ping(pingId: Int64(i)))
                open.append(connection)
            }
            let during = server.rss()
            for connection in open { await connection.close() }
            try await Task.sleep(nanoseconds: 2_000_000_000)
            let after = server.rss()
            await first.close()
            rows.append(("tg-server RSS, 1 connection", mib(before)))
            rows.append(
                (
                    "tg-server RSS, 2,000 idle connections open",
                    mib(during) + String(format: " (%.1f KiB each)", Double(during - before) / 2000 / 1024)
                ))
            rows.append(("tg-server RSS, 2 s after they closed", mib(after)))
        }

        // 2. A flood of 2,000 connections from one address against the default caps.
        do {
            let server = try ServerProcess(arguments: [])
            defer { server.stop() }
            let flood = try await Flood.run(count: 2000, port: server.port, group: group)
            rows.append(
                (
                    "2,000-connection flood from 127.0.0.1 (default cap 256 per address)",
                    "\(flood.admitted) admitted, \(flood.refused) got -429 and were closed, \(flood.other) other; server RSS \(mib(server.rss()))"
                ))
        }

        // 3. A connection that sends half a frame and stalls, at the default --frame-timeout.
        do {
            let server = try ServerProcess(arguments: [])
            defer { server.stop() }
            let lifetime = try await Stall.lifetime(port: server.port, group: group)
            rows.append(
                ("a half frame that stalls lives (default --frame-timeout 20 s)", String(format: "%.2f s", lifetime)))
        }

        // 4. msg_resend_req / msgs_state_req naming 8,192 ids, 200 times each over 8 connections.
        do {
            let server = try ServerProcess(arguments: [])
            defer { server.stop() }
            let attack = try await ResendAttack.run(server: server, group: group)
            rows.append(
                (
                    "msg_resend_req naming 8,192 ids (100 cached help.getConfig answers, each named ~82 times): largest packet back",
                    String(format: "%.1f KiB", Double(attack.largestReply) / 1024)
                ))
            rows.append(
                (
                    "server RSS before / at the end of 1,600 such requests",
                    "\(mib(attack.before)) / \(mib(attack.after))"
                ))
        }
        try await group.shutdownGracefully()

        print("\n### tg-server limits (release, 127.0.0.1)\n")
        print("| what | measured |")
        print("|---|---|")
        for (what, value) in rows { print("| \(what) | \(value) |") }
    }

    static func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    /// Room for 2,000+ sockets in this process.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
