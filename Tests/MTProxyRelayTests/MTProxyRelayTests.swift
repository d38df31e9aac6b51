import Foundation
import MTProtoTransport
import MTProxyRelay
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import TelegramApi
import Synchronization
import Testing

/// Our MTProxy on real sockets in front of a real tg-server: our client through it with each kind of secret (a key
/// exchange, a sign-up, calls); a connection that is not a client handed byte for byte to the front, or left without
/// an answer and closed; the connection cap.
@Suite(.serialized) struct MTProxyRelayTests {
    static let key: [UInt8] = (0..<16).map { UInt8(0x30 + $0) }

    static func relay(
        _ backend: BackendServer, front: MTProxyConfiguration.Address? = nil,
        adjust: (inout MTProxyConfiguration) -> Void = { _ in }
    ) async throws -> MTProxyRelayServer {
        var datacenters: [Int16: MTProxyConfiguration.Address] = [:]
        for (dc, endpoint) in backend.endpoints {
            datacenters[Int16(dc)] = .init(host: endpoint.host, port: endpoint.port)
        }
        var configuration = MTProxyConfiguration(keys: [key], datacenters: datacenters, front: front)
        adjust(&configuration)
        return try await MTProxyRelayServer.start(
            host: "127.0.0.1", port: 0, configuration: configuration, group: backend.group)
    }

    @Test(arguments: [MTProxySecret.Kind.plain, .padded, .fakeTLS])
    func ourClientThroughOurProxy(kind: MTProxySecret.Kind) async throws {
        let backend = try await BackendServer()
        let relay = try await Self.relay(backend)
        var endpoint = try #require(backend.endpoints[2])
        endpoint.proxy = .mtproxy(
            MTProxy(
                host: "127.0.0.1", port: relay.port,
                secret: try MTProxySecret(kind: kind, key: Self.key, domain: "a.example")))
        let connection = try await MTProtoConnection.connect(
            to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        let phone = "99966293\(kind == .plain ? 1 : kind == .padded ? 3 : 5)1"
        guard case .user(let user) = try await BackendServer.signUp(connection, phone: phone, name: "Relayed") else {
            Issue.record("no user")
            return
        }
        let me = try await connection.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let self_)? = me.first else {
            Issue.record("no self")
            return
        }
        #expect(self_.id == user.id)
        // A call with a large answer crosses the relay in many records and reads.
        let config = try await connection.invoke(Api.functions.help.getConfig())
        guard case .config(let value) = config else {
            Issue.record("no config")
            return
        }
        #expect(value.thisDc == 2)
        #expect(relay.openConnections >= 1)
        await connection.close()
        try await relay.close()
        try await backend.close()
    }

    /// A DC given by host name goes through NIO's resolver; an IP address (every other test) is connected to as it is.
    @Test func aDataCenterNamedByHostNameIsResolved() async throws {
        let backend = try await BackendServer()
        let relay = try await Self.relay(backend) { configuration in
            for (dc, address) in configuration.datacenters {
                configuration.datacenters[dc] = .init(host: "localhost", port: address.port)
            }
        }
        var endpoint = try #require(backend.endpoints[2])
        endpoint.proxy = .mtproxy(
            MTProxy(host: "127.0.0.1", port: relay.port, secret: try MTProxySecret(kind: .padded, key: Self.key)))
        let connection = try await MTProtoConnection.connect(
            to: endpoint, publicKeys: backend.publicKeys, group: backend.group, keyExchangeTimeout: 20,
            answerTimeout: 20)
        guard case .nearestDc(let dc) = try await connection.invoke(Api.functions.help.getNearestDc()) else {
            Issue.record("no nearestDc")
            return
        }
        #expect(dc.thisDc == 2)
        await connection.close()
        try await relay.close()
        try await backend.close()
    }

    @Test func aStrangerIsHandedToTheFrontByteForByte() async throws {
        let backend = try await BackendServer()
        let front = try await ServerBootstrap(group: backend.group)
            .childChannelInitializer { $0.pipeline.addHandler(Echo(prefix: Array("front:".utf8))) }
            .bind(host: "127.0.0.1", port: 0).get()
        let relay = try await Self.relay(
            backend, front: .init(host: "127.0.0.1", port: try #require(front.localAddress?.port)))
        let request = Array("GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8.5\r\nAccept: */*\r\n\r\n".utf8)
        let reply = try await Self.exchange(
            request, port: relay.port, group: backend.group, expecting: request.count + 6)
        #expect(reply == Array("front:".utf8) + request)
        try await relay.close()
        try await front.close()
        try await backend.close()
    }

    @Test func withoutAFrontAStrangerGetsNothingAndIsClosed() async throws {
        let backend = try await BackendServer()
        let relay = try await Self.relay(backend) { $0.handshakeTimeout = .seconds(1) }
        // The proxy closes the connection at its 1 s handshake timeout; 20 s bounds the wait on a loaded machine.
        let collector = try await Self.collect(
            Array(repeating: 0x42, count: 200), port: relay.port, group: backend.group, expecting: 1, within: 20)
        #expect(collector.bytes.isEmpty)
        #expect(collector.closedByPeer, "the proxy closed the connection")
        try await relay.close()
        try await backend.close()
    }

    @Test func connectionsPastTheCapAreClosed() async throws {
        let backend = try await BackendServer()
        // The two within the cap send nothing: a handshake timeout far past the test keeps them open however slow
        // the machine (at the default 10 s, a loaded run closed them before the check).
        let relay = try await Self.relay(backend) {
            $0.maximumConnections = 2
            $0.handshakeTimeout = .seconds(300)
        }
        var channels: [any Channel] = []
        for _ in 0..<3 {
            channels.append(
                try await ClientBootstrap(group: backend.group).connect(host: "127.0.0.1", port: relay.port).get())
        }
        // One of the three is closed by the proxy at once — not necessarily the last connected: each connection's
        // admission runs on its own event loop, so under load the third to connect can be counted first (the test
        // once waited on the third's close while the first had been the one refused).
        let firstClosed = backend.group.next().makePromise(of: Int.self)
        let fulfilled = Mutex(false)
        for (index, channel) in channels.enumerated() {
            channel.closeFuture.whenComplete { _ in
                if fulfilled.withLock({ done in defer { done = true }; return !done }) { firstClosed.succeed(index) }
            }
        }
        let refused = try await firstClosed.futureResult.get()
        #expect(relay.refusedConnections == 1)
        #expect(channels.indices.filter { $0 != refused }.allSatisfy { channels[$0].isActive })
        for channel in channels { try? await channel.close() }
        try await relay.close()
        try await backend.close()
    }

    /// Sends `bytes` to `port` and collects what comes back until `expecting` bytes, the connection closes, or
    /// `within` seconds pass.
    static func exchange(
        _ bytes: [UInt8], port: Int, group: any EventLoopGroup, expecting: Int, within: Double = 10
    ) async throws -> [UInt8] {
        try await collect(bytes, port: port, group: group, expecting: expecting, within: within).bytes
    }

    /// `exchange`, returning the collector (what came back, and whether the other end closed first). A write the
    /// other end refused because it had closed already counts as sent: only what came back matters.
    static func collect(
        _ bytes: [UInt8], port: Int, group: any EventLoopGroup, expecting: Int, within: Double
    ) async throws -> Collector {
        let loop = group.next()
        let done = loop.makePromise(of: Void.self)
        let collector = Collector(expecting: expecting, done: done)
        let channel = try await ClientBootstrap(group: loop)
            .channelInitializer { $0.pipeline.addHandler(collector) }
            .connect(host: "127.0.0.1", port: port).get()
        try? await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
        let timer = loop.scheduleTask(in: .milliseconds(Int64(within * 1000))) { collector.finish() }
        try await done.futureResult.get()
        timer.cancel()
        try? await channel.close()
        return collector
    }

    /// Writes back what it reads, after `prefix` once.
    final class Echo: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let prefix: [UInt8]
        init(prefix: [UInt8]) { self.prefix = prefix }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: prefix)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(data, promise: nil)
        }
    }

    /// Keeps what a connection reads; completes `done` once `expecting` bytes are in or the connection closes.
    final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private let lock = NSLock()
        private var received: [UInt8] = []
        private let expecting: Int
        private let done: EventLoopPromise<Void>
        private var closed = false
        private var finished = false
        var bytes: [UInt8] { lock.withLock { received } }
        /// The connection closed before the wait ended (the test closes it itself only afterwards).
        var closedByPeer: Bool { lock.withLock { closed } }

        init(expecting: Int, done: EventLoopPromise<Void>) {
            self.expecting = expecting
            self.done = done
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            let count = lock.withLock {
                received += bytes
                return received.count
            }
            if count >= expecting { finish() }
        }

        /// Ends the wait (enough bytes came, or the time is up).
        func finish() {
            lock.withLock { finished = true }
            done.succeed()
        }

        func channelInactive(context: ChannelHandlerContext) {
            lock.withLock { closed = !finished }
            done.succeed()
        }
    }
}
