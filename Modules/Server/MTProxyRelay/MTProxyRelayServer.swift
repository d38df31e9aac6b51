public import NIOCore
import NIOPosix
import Synchronization

/// An MTProxy of our own, in direct mode: listens for MTProto clients using one of its secrets (plain, `dd` or `ee`
/// fake-TLS), and relays each to the data center its obfuscated2 header names over a fresh obfuscated2 connection,
/// re-encrypting both ways without reading the MTProto inside (core.telegram.org/mtproto/mtproto-transports
/// §Transport obfuscation; the official MTProxy and alexbers' mtprotoproxy work so). A connection that is not a
/// client — wrong secret, replay, a browser — is handed unchanged to the front address when one is configured, so
/// the port looks like that site, and otherwise gets no answer. Connections, pending bytes and time are bounded
/// (`MTProxyConfiguration`).
public final class MTProxyRelayServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let channel: any Channel
    private let connections: Connections

    /// How many client connections are open, and how many were closed at once for the cap.
    final class Connections: Sendable {
        let counts = Mutex((open: 0, refused: 0))
    }

    private init(channel: any Channel, port: Int, connections: Connections) {
        self.channel = channel
        self.port = port
        self.connections = connections
    }

    /// Binds `host:port` (0: a free port) and starts relaying.
    public static func start(
        host: String, port: Int, configuration: MTProxyConfiguration, group: any EventLoopGroup
    ) async throws -> MTProxyRelayServer {
        let replays = ReplayCache(capacity: configuration.replayCapacity)
        let connections = Connections()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                let admitted = connections.counts.withLock { counts in
                    guard counts.open < configuration.maximumConnections else {
                        counts.refused += 1
                        return false
                    }
                    counts.open += 1
                    return true
                }
                guard admitted else { return child.close() }
                child.closeFuture.whenComplete { _ in connections.counts.withLock { $0.open -= 1 } }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandlers([
                        IdleStateHandler(allTimeout: configuration.idleTimeout),
                        ClientSideHandler(configuration: configuration, replays: replays),
                    ])
                }
            }
            .bind(host: host, port: port).get()
        return MTProxyRelayServer(channel: channel, port: channel.localAddress?.port ?? port, connections: connections)
    }

    /// Client connections open now.
    public var openConnections: Int { connections.counts.withLock { $0.open } }

    /// Connections closed on arrival because `maximumConnections` were open.
    public var refusedConnections: Int { connections.counts.withLock { $0.refused } }

    /// Stops listening (open relays end as their sockets close).
    public func close() async throws {
        try await channel.close()
    }
}
