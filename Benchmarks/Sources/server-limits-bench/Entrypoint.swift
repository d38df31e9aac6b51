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
/// attack reaches. Every probe runs once per round (7 rounds, `BENCH_ROUNDS` to change); the table gives each figure's
/// median of all rounds with the min–max, and the load (there is no peer: the bound is the point).
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
        // Every probe runs once per round, against a tg-server of its own; the table gives the median of all rounds
        // with the min–max (BENCHMARKS.md, "Method"). One round under `make bench-check`.
        let rounds = BenchmarkMethod.rounds(7)
        var figures = Figures()
        for _ in 0..<rounds {
            try await idleConnections(into: &figures, group: group)
            try await flood(into: &figures, group: group)
            try await stall(into: &figures, group: group)
            try await resendAttack(into: &figures, group: group)
        }
        try await group.shutdownGracefully()

        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
        print("load average at the end: \(load)")
        print("\n### tg-server limits (release, 127.0.0.1)\n")
        print("| what | median of \(rounds) round\(rounds == 1 ? "" : "s") (min–max) |")
        print("|---|---|")
        for row in figures.rows { print("| \(row.what) | \(row.text) |") }
    }

    /// 1. 2,000 idle MTProto connections (one key, each with a session and a ping answered).
    static func idleConnections(into figures: inout Figures, group: any EventLoopGroup) async throws {
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
        figures.add("tg-server RSS, 1 connection", mib(before), unit: "MiB")
        figures.add("tg-server RSS, 2,000 idle connections open", mib(during), unit: "MiB")
        figures.add("… per idle connection", Double(during - before) / 2000 / 1024, unit: "KiB")
        figures.add("tg-server RSS, 2 s after they closed", mib(after), unit: "MiB")
    }

    /// 2. A flood of 2,000 connections from one address against the default caps.
    static func flood(into figures: inout Figures, group: any EventLoopGroup) async throws {
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let flood = try await Flood.run(count: 2000, port: server.port, group: group)
        let what = "2,000-connection flood from 127.0.0.1 (default cap 256 per address)"
        figures.add("\(what): admitted", Double(flood.admitted), unit: "", decimals: 0)
        figures.add("… got -429 and were closed", Double(flood.refused), unit: "", decimals: 0)
        figures.add("… anything else", Double(flood.other), unit: "", decimals: 0)
        figures.add("… server RSS after the flood", mib(server.rss()), unit: "MiB")
    }

    /// 3. A connection that sends half a frame and stalls, at the default --frame-timeout.
    static func stall(into figures: inout Figures, group: any EventLoopGroup) async throws {
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let lifetime = try await Stall.lifetime(port: server.port, group: group)
        figures.add(
            "a half frame that stalls lives (default --frame-timeout 20 s)", lifetime, unit: "s", decimals: 2)
    }

    /// 4. msg_resend_req / msgs_state_req naming 8,192 ids, 200 times each over 8 connections.
    static func resendAttack(into figures: inout Figures, group: any EventLoopGroup) async throws {
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let attack = try await ResendAttack.run(server: server, group: group)
        figures.add(
            "msg_resend_req naming 8,192 ids (100 cached help.getConfig answers, each named ~82 times): largest "
                + "packet back", Double(attack.largestReply) / 1024, unit: "KiB")
        figures.add("server RSS before 1,600 such requests", mib(attack.before), unit: "MiB")
        figures.add("… at their end", mib(attack.after), unit: "MiB")
    }

    static func mib(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }

    /// Room for 2,000+ sockets in this process.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
