import BenchmarkSupport
import Foundation
import MTProtoCore
import MTProtoTransport
import NIOPosix
import Network
import TelegramApi

/// One way for our client to reach DC 2: straight to tg-server, or through `mtproxy` with one kind of secret.
struct Route: Sendable {
    let name: String
    let endpoint: MTProtoConnection.Endpoint
    /// Through the proxy (its CPU is counted for this route).
    let proxied: Bool

    /// Straight to the DC, obfuscated2 without a secret, in `framing`: the same bytes on the wire as a proxied
    /// client's (minus fake-TLS), so the only difference is the proxy's hop.
    static func direct(port: Int, framing: TransportFraming) -> Route {
        Route(
            name: "direct (obfuscated2, \(framing == .paddedIntermediate ? "padded intermediate" : "\(framing)"))",
            endpoint: .init(
                host: "127.0.0.1", port: port, dcId: 2, framing: framing, obfuscation: .obfuscated2(dcId: 2)),
            proxied: false)
    }

    /// Through the proxy on `proxyPort` with `secret`; the DC's own address stays in the endpoint (the proxy is told
    /// DC 2 in the obfuscated2 header).
    static func proxy(_ name: String, port: Int, proxyPort: Int, secret: MTProxySecret) -> Route {
        Route(
            name: name,
            endpoint: .init(
                host: "127.0.0.1", port: port, dcId: 2, framing: .abridged,
                proxy: .mtproxy(MTProxy(host: "127.0.0.1", port: proxyPort, secret: secret))),
            proxied: true)
    }
}

/// The two workloads, run the same way on every route with one saved auth key.
struct Workloads: Sendable {
    /// The auth key every connection reuses (made once, straight to the DC).
    let key: AuthKeyExchangeResult
    let group: MultiThreadedEventLoopGroup
    let cpu: CPUTally

    /// `count` connects one after another, each: TCP (to the proxy, which opens its own to the DC), the transport's
    /// opening (the obfuscated2 header; for `ee` also the fake-TLS hello and the proxy's signed answer), and a first
    /// call on the saved key — `invokeWithLayer(initConnection(help.getNearestDc))` in a new session — answered; then
    /// close. No key exchange. The output counts the answers naming DC 2.
    func connects(_ route: Route, count: Int) async throws -> TimedRun<String> {
        let cpu = self.cpu.sample()
        let start = now()
        var answers = 0
        for _ in 0..<count {
            let connection = try await MTProtoConnection.connect(
                to: route.endpoint, publicKeys: [], savedKey: key, group: group)
            if case .nearestDc(let dc) = try await connection.invoke(Api.functions.help.getNearestDc()),
                dc.thisDc == 2
            {
                answers += 1
            }
            await connection.close()
        }
        let seconds = now() - start
        self.cpu.add(since: cpu, items: count, to: "connect", route)
        return TimedRun(seconds: seconds, output: "\(answers) of \(count) connects answered by DC 2")
    }

    /// Opens the connection `calls` run on (untimed; its first call, the one wrapped in initConnection, made).
    func open(_ route: Route) async throws -> MTProtoConnection {
        let connection = try await MTProtoConnection.connect(
            to: route.endpoint, publicKeys: [], savedKey: key, group: group)
        _ = try await connection.invoke(Api.functions.help.getNearestDc())
        return connection
    }

    /// `count` help.getNearestDc calls over `connection`, `inFlight` at a time (that many tasks, each calling in
    /// turn). The output: how many answers came, and a checksum of their DC numbers and country.
    func calls(
        _ route: Route, over connection: MTProtoConnection, count: Int, inFlight: Int
    ) async throws -> TimedRun<String> {
        let cpu = self.cpu.sample()
        let start = now()
        let checksum = try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
            for task in 0..<inFlight {
                let share = count / inFlight + (task < count % inFlight ? 1 : 0)
                tasks.addTask {
                    var answers = 0
                    var sum = 0
                    for _ in 0..<share {
                        guard case .nearestDc(let dc) = try await connection.invoke(Api.functions.help.getNearestDc())
                        else { continue }
                        answers += 1
                        sum &+= Int(dc.thisDc) &* 31 &+ Int(dc.nearestDc) &+ dc.country.utf8.count
                    }
                    return (answers, sum)
                }
            }
            var total = (0, 0)
            for try await part in tasks { total = (total.0 + part.0, total.1 &+ part.1) }
            return total
        }
        let seconds = now() - start
        self.cpu.add(since: cpu, items: count, to: "calls", route)
        return TimedRun(seconds: seconds, output: "\(checksum.0) answers, checksum \(checksum.1)")
    }
}
