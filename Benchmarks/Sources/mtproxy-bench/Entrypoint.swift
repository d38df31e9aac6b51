import BenchmarkSupport
import Foundation
import MTProtoTransport
import NIOPosix
import Network
import ServerBenchSupport
import TelegramApi

/// Our `mtproxy` against going straight to the DC (the issue "Reaching Telegram where it is blocked"): a release
/// tg-server and a release `mtproxy` in front of it, each its own process; our client (MTProtoConnection, one
/// event-loop thread) in this one. Connect time and 1,000 calls through the proxy with a plain, a `dd` and an `ee`
/// secret, each against the same work straight to the DC in the same framing; and fake-TLS against plain obfuscated2
/// through the proxy. Every comparison is interleaved and checks that both sides got the same answers.
@main
enum MTProxyBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: mtproxy-bench [--connects N] [--calls N] [--in-flight N] [--proxy-own-core]
              connect time (saved key: TCP + transport opening + a first call in a new session, N per round, 100)
              and N help.getNearestDc calls per round (1,000, --in-flight at a time, 100) over one connection,
              through our mtproxy (plain, dd, ee) against straight to the DC; ee against plain through the proxy.
              TG_SERVER_BIN and MTPROXY_BIN name the release binaries (bench.sh builds and passes both);
              BENCH_ROUNDS (7) rounds; BENCH_CHECK=1: one round of 10 connects and 200 calls.
              --proxy-own-core: mtproxy alone on CPU 1, as deployed on its own host; our client and tg-server on
              CPU 0 on both sides (needs taskset and two cores). Without it all three share every core.
            """, accepted: ["--connects", "--calls", "--in-flight", CorePlacement.flag],
            takingValue: ["--connects", "--calls", "--in-flight"])
        try CorePlacement.confineToFirstCore()
        printMachine()
        print(CorePlacement.description)
        let check = BenchmarkMethod.isCheck
        let connects = value(after: "--connects", default: check ? 10 : 100)
        let calls = value(after: "--calls", default: check ? 200 : 1_000)
        let inFlight = min(calls, value(after: "--in-flight", default: 100))

        // 100 calls in flight on one connection: let the server read them all (its default stops reading at 32).
        let server = try ServerProcess(arguments: ["--max-calls-in-flight", "128"])
        ChildProcesses.shared.stopAtExit(server.process.processIdentifier)
        defer {
            ChildProcesses.shared.forget(server.process.processIdentifier)
            server.stop()
        }
        let key = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let proxy = try ProxyProcess(
            key: key.map { String(format: "%02x", $0) }.joined(), dcPort: server.port, core: CorePlacement.proxyCore)
        ChildProcesses.shared.stopAtExit(proxy.process.processIdentifier)
        defer {
            ChildProcesses.shared.forget(proxy.process.processIdentifier)
            proxy.stop()
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

        let directAbridged = Route.direct(port: server.port, framing: .abridged)
        let directPadded = Route.direct(port: server.port, framing: .paddedIntermediate)
        let plain = Route.proxy(
            "mtproxy plain (obfuscated2, abridged)", port: server.port, proxyPort: proxy.port,
            secret: try MTProxySecret(kind: .plain, key: key))
        let padded = Route.proxy(
            "mtproxy dd (obfuscated2, padded intermediate)", port: server.port, proxyPort: proxy.port,
            secret: try MTProxySecret(kind: .padded, key: key))
        let fakeTLS = Route.proxy(
            "mtproxy ee (fake-TLS, padded intermediate)", port: server.port, proxyPort: proxy.port,
            secret: try MTProxySecret(kind: .fakeTLS, key: key, domain: "example.com"))
        // What each row compares: ours (through the proxy, or ee) against the peer (straight, or plain / dd).
        let pairs: [(ours: Route, peer: Route)] = [
            (plain, directAbridged), (padded, directPadded), (fakeTLS, directPadded), (fakeTLS, plain),
            (fakeTLS, padded),
        ]

        // One key for every connection, made straight to the DC.
        let first = try await MTProtoConnection.connect(
            to: directAbridged.endpoint, publicKeys: [server.publicKey], group: group)
        _ = try await first.invoke(Api.functions.help.getNearestDc())
        let workloads = Workloads(
            key: first.key, group: group,
            cpu: CPUTally(serverPid: server.process.processIdentifier, proxyPid: proxy.process.processIdentifier))
        await first.close()

        var connectRows: [Comparison] = []
        for pair in pairs {
            connectRows.append(
                try await compareInterleaved(
                    "connect: \(pair.ours.name) vs \(pair.peer.name)", items: Double(connects), unit: "connects",
                    goal: pair.peer.proxied ? "" : "≤ +1 ms (ms table)",
                    oursAsync: { try await workloads.connects(pair.ours, count: connects) },
                    peerAsync: { try await workloads.connects(pair.peer, count: connects) }))
        }
        var callRows: [Comparison] = []
        for pair in pairs {
            let ours = try await workloads.open(pair.ours)
            let peer = try await workloads.open(pair.peer)
            callRows.append(
                try await compareInterleaved(
                    "\(grouped(calls)) calls, \(inFlight) in flight: \(pair.ours.name) vs \(pair.peer.name)",
                    items: Double(calls), unit: "calls", goal: pair.peer.proxied ? "" : "≥ 0.8×",
                    oursAsync: { try await workloads.calls(pair.ours, over: ours, count: calls, inFlight: inFlight) },
                    peerAsync: { try await workloads.calls(pair.peer, over: peer, count: calls, inFlight: inFlight) }))
            await ours.close()
            await peer.close()
        }
        try await group.shutdownGracefully()

        printTable(
            title: "mtproxy (release tg-server and mtproxy processes on 127.0.0.1; ours = the first route named)",
            peerName: "the second route", connectRows + callRows)
        printConnectTimes(connectRows, connects: connects)
        print("\n### CPU per connect and per call (µs; every run, warm-ups included)\n")
        print("| workload | client | tg-server | mtproxy | all three |")
        print("|---|---:|---:|---:|---:|")
        for row in workloads.cpu.perItem() {
            let cpu = row.microseconds
            print(
                String(
                    format: "| %@ | %.1f | %.1f | %.1f | %.1f |", row.name, cpu.client, cpu.server, cpu.proxy,
                    cpu.client + cpu.server + cpu.proxy))
        }
        print("\nload average at end: \(loadAverage())")
    }

    /// Connect rows in milliseconds per connect: each side's median round (its mean connect) with the fastest and
    /// slowest round, and the difference of the medians.
    static func printConnectTimes(_ rows: [Comparison], connects: Int) {
        print("\n### connect time (ms per connect; median round, fastest–slowest round)\n")
        print("| workload | ours | the second route | difference | goal |")
        print("|---|---:|---:|---:|---|")
        func milliseconds(_ m: BenchmarkSupport.Measurement) -> String {
            let per = 1000 / Double(connects)
            guard let range = m.range else { return String(format: "%.2f", m.seconds * per) }
            return String(
                format: "%.2f (%.2f–%.2f)", m.seconds * per, range.lowerBound * per, range.upperBound * per)
        }
        for row in rows {
            guard let peer = row.peer else { continue }
            let difference = (row.ours.seconds - peer.seconds) * 1000 / Double(connects)
            print(
                "| \(row.workload) | \(milliseconds(row.ours)) | \(milliseconds(peer)) | "
                    + String(format: "%+.2f ms", difference) + " | \(row.goal) |")
        }
    }

    /// `number` with a comma every three digits ("1,000").
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(
            digits.enumerated().flatMap { index, digit in
                index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
            })
    }

    /// The number after `flag` on the command line, or `fallback`.
    static func value(after flag: String, default fallback: Int) -> Int {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
            let number = Int(arguments[index + 1]), number > 0
        else { return fallback }
        return number
    }
}
