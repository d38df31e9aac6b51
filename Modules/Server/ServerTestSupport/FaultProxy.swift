import Foundation
public import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 between a client and a server that misbehaves on purpose: it drops connections after a
/// random number of bytes, splits what it forwards into single bytes, stalls a connection (keeps it open and
/// forwards nothing more), or black-holes one (accepts and swallows everything).
public final class FaultProxy: @unchecked Sendable {
    /// How the proxy misbehaves.
    public enum Mode: Sendable, Equatable {
        /// Forward as is.
        case pass
        /// Close both sides once a connection has carried a random 150…`maximumBytes` bytes towards the server.
        case drop(maximumBytes: Int)
        /// Forward every byte as its own write.
        case trickle
        /// A connection stops forwarding after a random 150…`maximumBytes` bytes and stays open; the connection after a
        /// stalled one passes, so the client gets through. A connection that ends before its stall (the client replaced
        /// it first) does not count: the next one is planned to stall again, so a fault still happens on a slow machine.
        case stall(maximumBytes: Int)
        /// The first `count` connections are accepted and swallow everything; later ones pass.
        case blackhole(count: Int)
    }

    public let port: Int
    private let channel: any Channel
    private let lock = NSLock()
    private var mode: Mode
    private var generator: UInt64
    private var connectionCount = 0
    /// Stall mode: the last connection planned to stall did stall, so the next one passes.
    private var passNext = false
    /// Connections the proxy cut or stalled on purpose.
    public private(set) var faults = 0

    public init(upstreamPort: Int, mode: Mode, seed: UInt64, group: any EventLoopGroup) async throws {
        self.mode = mode
        self.generator = seed | 1
        let box = ProxyBox()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                guard let proxy = box.proxy else { return inbound.close() }
                return proxy.attach(inbound, upstreamPort: upstreamPort)
            }
        channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
        box.proxy = self
    }

    public func close() async { try? await channel.close() }

    private func nextRandom() -> UInt64 {
        lock.withLock {
            generator ^= generator << 13
            generator ^= generator >> 7
            generator ^= generator << 17
            return generator
        }
    }

    /// What this new connection will do.
    private func plan() -> ConnectionPlan {
        let (mode, number) = lock.withLock { () -> (Mode, Int) in
            connectionCount += 1
            return (self.mode, connectionCount)
        }
        switch mode {
        case .pass: return .init()
        case .drop(let maximum): return .init(dropAfter: 150 + Int(nextRandom() % UInt64(max(1, maximum - 150))))
        case .trickle: return .init(trickle: true)
        case .stall(let maximum):
            let pass = lock.withLock { () -> Bool in
                defer { passNext = false }
                return passNext
            }
            return pass ? .init() : .init(stallAfter: 150 + Int(nextRandom() % UInt64(max(1, maximum - 150))))
        case .blackhole(let count): return .init(blackhole: number <= count)
        }
    }

    func countFault() { lock.withLock { faults += 1 } }

    /// A connection stalled: the next one passes.
    func countStall() {
        lock.withLock {
            faults += 1
            passNext = true
        }
    }

    private func attach(_ inbound: any Channel, upstreamPort: Int) -> EventLoopFuture<Void> {
        let plan = self.plan()
        if plan.blackhole {
            countFault()
            return inbound.pipeline.addHandler(Swallow())
        }
        return ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: upstreamPort).flatMap {
            outbound in
            let state = ConnectionState(plan: plan, proxy: self)
            let toServer = Relay(state: state, towardsServer: true)
            let toClient = Relay(state: state, towardsServer: false)
            toServer.partner = outbound
            toClient.partner = inbound
            return inbound.pipeline.addHandler(toServer).flatMap { outbound.pipeline.addHandler(toClient) }
        }
    }
}

private final class ProxyBox: @unchecked Sendable {
    var proxy: FaultProxy?
}

private struct ConnectionPlan {
    var dropAfter: Int?
    var trickle = false
    var stallAfter: Int?
    var blackhole = false
}

/// Shared by the two directions of one proxied connection (both on the same event loop).
private final class ConnectionState: @unchecked Sendable {
    let plan: ConnectionPlan
    let proxy: FaultProxy
    var bytesTowardsServer = 0
    var stalled = false

    init(plan: ConnectionPlan, proxy: FaultProxy) {
        self.plan = plan
        self.proxy = proxy
    }
}

private final class Relay: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let state: ConnectionState
    let towardsServer: Bool
    var partner: (any Channel)?

    init(state: ConnectionState, towardsServer: Bool) {
        self.state = state
        self.towardsServer = towardsServer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard let partner, !state.stalled else { return }
        if towardsServer {
            state.bytesTowardsServer += buffer.readableBytes
            if let limit = state.plan.dropAfter, state.bytesTowardsServer > limit {
                // Forward part of it, then cut both sides: the cut lands inside a request.
                let keep = max(0, buffer.readableBytes - (state.bytesTowardsServer - limit))
                if keep > 0, let slice = buffer.readSlice(length: keep) { partner.writeAndFlush(slice, promise: nil) }
                state.proxy.countFault()
                partner.close(promise: nil)
                context.close(promise: nil)
                return
            }
            if let limit = state.plan.stallAfter, state.bytesTowardsServer > limit {
                state.stalled = true
                state.proxy.countStall()
                return
            }
        }
        if state.plan.trickle {
            while let byte = buffer.readSlice(length: 1) { partner.writeAndFlush(byte, promise: nil) }
        } else {
            partner.writeAndFlush(buffer, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// A black hole: reads and discards.
private final class Swallow: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
