public import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener whose connections speak any MTProto transport: each accepted channel starts with a
/// `TransportDetector`, which installs the detected framing (and deobfuscation) and then the caller's handlers,
/// which receive `TransportFrame`s and write `TransportFrame`s.
public final class TransportServer: Sendable {
    /// The listening channel.
    public let channel: any Channel

    /// The port actually bound (useful with port 0).
    public var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Binds `host:port` (port 0 picks a free one). `makeHandlers` runs on each connection's event loop once its
    /// transport is known and returns the handlers that consume its frames; `secrets` are the MTProxy secrets
    /// obfuscated2 clients may use; `frameTimeout` closes connections whose first bytes or whose frames stall.
    /// Writes are buffered up to `writeBufferHighWaterMark` bytes before the channel reports itself unwritable (the
    /// consumer then stops reading until it drains below `writeBufferLowWaterMark`).
    ///
    /// `admit` decides on each connection as it is accepted, before it has said anything: a refused one is closed at
    /// once (within `refusalGrace`), told transport error −429 in its own framing if its first bytes came with it,
    /// and never reaches `makeHandlers`.
    ///
    /// With `accepting: false` the port is bound but no connection is accepted until `startAccepting()`: clients that
    /// connect meanwhile wait in the listen backlog (the kernel completes their handshakes), for a server that
    /// cannot serve yet.
    public static func start(
        host: String, port: Int, group: any EventLoopGroup, secrets: [[UInt8]] = [],
        frameTimeout: TimeAmount? = nil, writeBufferLowWaterMark: Int = 256 * 1024,
        writeBufferHighWaterMark: Int = 1024 * 1024, backlog: Int32 = 1024, http: HTTPTransportLimits = .init(),
        accepting: Bool = true, admit: (@Sendable (any Channel) -> Bool)? = nil,
        makeHandlers: @escaping @Sendable (any Channel) throws -> [any ChannelHandler]
    ) async throws -> TransportServer {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: backlog)
            // A listener's reads are its accepts: without auto-read it accepts nothing until told to.
            .serverChannelOption(.autoRead, value: accepting)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: false)
            .childChannelOption(
                .writeBufferWaterMark, value: .init(low: writeBufferLowWaterMark, high: writeBufferHighWaterMark)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let admit, !admit(channel) {
                        try refuse(channel, secrets: secrets, http: http)
                        return
                    }
                    let detector = TransportPipeline.serverDetector(
                        secrets: secrets, frameTimeout: frameTimeout, http: http
                    ) {
                        try makeHandlers(channel)
                    }
                    try channel.pipeline.syncOperations.addHandler(detector)
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        return TransportServer(channel: channel)
    }

    /// Starts accepting connections on a listener started with `accepting: false` (those waiting first).
    public func startAccepting() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
    }

    /// How long a refused connection stays open for its first bytes to arrive: on any network they follow the
    /// handshake at once, and with them the refusal can be said in the client's framing.
    public static let refusalGrace = TimeAmount.milliseconds(50)

    /// Answers −429 in the framing the first bytes name, if they come within `refusalGrace`; closes the connection
    /// then in any case.
    private static func refuse(_ channel: any Channel, secrets: [[UInt8]], http: HTTPTransportLimits) throws {
        let detector = TransportPipeline.serverDetector(secrets: secrets, http: http) { [TransportRefusal(code: -429)] }
        try channel.pipeline.syncOperations.addHandler(detector)
        channel.eventLoop.scheduleTask(in: refusalGrace) {
            // A refusal already installed closes the connection once its −429 is written.
            if (try? channel.pipeline.syncOperations.handler(type: TransportRefusal.self)) == nil {
                channel.close(promise: nil)
            }
        }
    }

    /// Stops listening; open connections are left to their handlers.
    public func close() async throws {
        try await channel.close()
    }
}

/// Opens client connections with a chosen framing and obfuscation, directly or through a SOCKS5 proxy.
public enum TransportClient {
    /// Connects to `host:port`, installs the client transport and then `makeHandlers`' handlers, which write and
    /// receive `TransportFrame`s.
    /// With `http`, packets travel as MTProto over HTTP (`POST /api`, `HTTPClientFrameAdapter`) instead of
    /// `framing`; with `httpSessionPolls` too, the long polls are the session's (`HTTPPollNeeded`), not empty POSTs.
    /// With `proxy`, the socket goes to the proxy, which is asked to connect to `host:port` (RFC 1928 `CONNECT`), and
    /// the channel is returned once the tunnel is up; `connectTimeout` bounds the TCP connect and the handshake each.
    public static func connect(
        host: String, port: Int, framing: TransportFraming, obfuscation: TransportObfuscation = .none,
        http: Bool = false,
        httpSessionPolls: Bool = false, proxy: SOCKS5Proxy? = nil, group: any EventLoopGroup,
        connectTimeout: TimeAmount = .seconds(10),
        makeHandlers: @escaping @Sendable (any Channel) throws -> [any ChannelHandler]
    ) async throws -> any Channel {
        let handshake = try proxy.map { try SOCKS5Handshake(host: host, port: port, credentials: $0.credentials) }
        let tunnel = TunnelBox()
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let handshake {
                        let socks = SOCKS5ClientHandler(
                            handshake: handshake, eventLoop: channel.eventLoop, timeout: connectTimeout)
                        tunnel.set(socks.established)
                        try sync.addHandler(socks)
                    }
                    if http {
                        try sync.addHandler(
                            HTTPClientFrameAdapter(host: host, port: port, sessionPolls: httpSessionPolls))
                    } else {
                        try TransportPipeline.addClientHandlers(framing: framing, obfuscation: obfuscation, to: sync)
                    }
                    try sync.addHandlers(makeHandlers(channel))
                }
            }
        let channel = try await bootstrap.connect(host: proxy?.host ?? host, port: proxy?.port ?? port).get()
        if let established = tunnel.future {
            do {
                try await established.get()
            } catch {
                channel.close(promise: nil)
                throw error
            }
        }
        return channel
    }

    /// Hands the SOCKS5 handler's future from the channel's initializer to the caller.
    private final class TunnelBox: Sendable {
        private let value = Mutex<EventLoopFuture<Void>?>(nil)
        func set(_ future: EventLoopFuture<Void>) { value.withLock { $0 = future } }
        var future: EventLoopFuture<Void>? { value.withLock { $0 } }
    }
}
