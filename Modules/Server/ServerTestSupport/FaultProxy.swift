import Foundation
public import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 between a client and a server that misbehaves on purpose: it drops connections after a
/// random number of bytes, splits what it forwards into single bytes, stalls a connection (keeps it open and
/// forwards nothing more), black-holes one (accepts and swallows everything), resets a connection when the server
/// first answers (the client's handshake dies with a TCP RST), or filters like a censor's DPI box: a connection
/// whose first packet looks like a blocked kind (`FirstPacket`: TLS, plain MTProto, HTTP, anything else) is
/// black-holed.
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
        /// The client's bytes go through, but when the server first answers, the client's connection is reset (RST,
        /// `SO_LINGER` 0) instead: every handshake dies half way.
        case resetOnFirstAnswer
        /// A connection whose first packet is of a kind in `blocking` is black-holed (swallowed, the server's side
        /// closed); the others pass.
        case filter(blocking: Set<FirstPacket>)
        /// The first `count` connections pass the client's bytes, but only the server's first `bytes` bytes: then both
        /// sides are closed. With `bytes` 4 on a framing that asks for quick acks, a request's quick ack arrives and its
        /// answer is lost. Later connections pass.
        case cutAfterServerBytes(Int, count: Int)
    }

    /// What a connection's first packet looks like to a filter that reads only its first bytes.
    public enum FirstPacket: Sendable, Hashable, CaseIterable {
        /// A TLS handshake record (`16 03 0x`): a TLS ClientHello, or MTProxy's fake-TLS one.
        case tls
        /// MTProto's plain TCP transports: the abridged (`ef`), intermediate (`eeeeeeee`) or padded intermediate
        /// (`dddddddd`) tag, or a full-framing packet (a length divisible by 4, then sequence number 0).
        case plainMTProto
        /// An HTTP request (`POST `, `GET `, `HEAD `): MTProto over HTTP among them.
        case http
        /// Anything else: obfuscated2's random-looking 64-byte header, for one.
        case other

        /// The kind of a packet that starts with `bytes`.
        public static func classify(_ bytes: [UInt8]) -> FirstPacket {
            if bytes.count >= 3, bytes[0] == 0x16, bytes[1] == 0x03, bytes[2] <= 0x04 { return .tls }
            for method in ["POST ", "GET ", "HEAD "] where bytes.starts(with: Array(method.utf8)) { return .http }
            if bytes.first == 0xef { return .plainMTProto }
            if bytes.count >= 4, bytes[0] == bytes[1], bytes[1] == bytes[2], bytes[2] == bytes[3],
                bytes[0] == 0xee || bytes[0] == 0xdd
            {
                return .plainMTProto
            }
            if bytes.count >= 8 {
                let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
                if length >= 12, length % 4 == 0, length <= 1 << 24, bytes[4..<8].allSatisfy({ $0 == 0 }) {
                    return .plainMTProto
                }
            }
            return .other
        }
    }

    public let port: Int
    private let channel: any Channel
    private let lock = NSLock()
    private var mode: Mode
    private var generator: UInt64
    private var connectionCount = 0
    /// Stall mode: the last connection planned to stall did stall, so the next one passes.
    private var passNext = false
    /// Connections the proxy cut, stalled, reset or black-holed on purpose.
    public private(set) var faults = 0
    /// Connections accepted so far.
    public var connections: Int { lock.withLock { connectionCount } }
    /// The connections whose first packet was of each kind (`filter` mode only).
    public var firstPackets: [FirstPacket: Int] { lock.withLock { seen } }
    private var seen: [FirstPacket: Int] = [:]

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
        case .resetOnFirstAnswer: return .init(resetOnFirstAnswer: true)
        case .filter(let blocking): return .init(blocking: blocking)
        case .cutAfterServerBytes(let bytes, let count): return number <= count ? .init(serverBytes: bytes) : .init()
        }
    }

    func countFault() { lock.withLock { faults += 1 } }

    func countFirstPacket(_ kind: FirstPacket) { lock.withLock { seen[kind, default: 0] += 1 } }

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
    var resetOnFirstAnswer = false
    var blocking: Set<FaultProxy.FirstPacket>?
    /// Only this many of the server's bytes reach the client; then both sides close.
    var serverBytes: Int?
}

/// Shared by the two directions of one proxied connection (both on the same event loop).
private final class ConnectionState: @unchecked Sendable {
    let plan: ConnectionPlan
    let proxy: FaultProxy
    var bytesTowardsServer = 0
    var bytesTowardsClient = 0
    var stalled = false
    /// A connection the filter black-holed: nothing more goes either way.
    var filtered = false

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
        guard let partner, !state.stalled, !state.filtered else { return }
        if towardsServer, state.bytesTowardsServer == 0, let blocking = state.plan.blocking {
            let kind = FaultProxy.FirstPacket.classify(Array(buffer.readableBytesView.prefix(16)))
            state.proxy.countFirstPacket(kind)
            if blocking.contains(kind) {
                // Black-holed: the client's socket stays open and hears nothing; the server never sees a byte.
                state.filtered = true
                state.proxy.countFault()
                partner.close(promise: nil)
                return
            }
        }
        if !towardsServer, state.plan.resetOnFirstAnswer {
            // The server's first answer never arrives: the client's connection is reset instead.
            state.proxy.countFault()
            state.stalled = true
            let client = partner
            let reset: EventLoopFuture<Void> =
                (client as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                ?? client.eventLoop.makeSucceededVoidFuture()
            reset.whenComplete { _ in client.close(promise: nil) }
            context.close(promise: nil)
            return
        }
        if !towardsServer, let limit = state.plan.serverBytes {
            let keep = min(buffer.readableBytes, limit - state.bytesTowardsClient)
            state.bytesTowardsClient += keep
            let written = buffer.readSlice(length: keep).map { partner.writeAndFlush($0) }
            guard state.bytesTowardsClient >= limit else { return }
            // The rest never arrives: both sides close once what was let through is written.
            state.stalled = true
            state.proxy.countFault()
            let client = partner
            let closeClient = { client.close(promise: nil) }
            if let written { written.whenComplete { _ in closeClient() } } else { closeClient() }
            context.close(promise: nil)
            return
        }
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
        // A filtered connection's client side stays open (a black hole) when the server's side is closed.
        if state.filtered, !towardsServer { return }
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
