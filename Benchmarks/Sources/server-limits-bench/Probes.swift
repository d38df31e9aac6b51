import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoTransport
import NIOCore
import NIOPosix
import Network
import ServerBenchSupport
import TelegramApi

/// Records what a raw connection receives and when it closes.
final class Watcher: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = TransportFrame
    private let lock = NSLock()
    private var frames: [TransportFrame] = []
    private var closedAt: Date?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lock.lock()
        frames.append(unwrapInboundIn(data))
        lock.unlock()
    }

    func channelInactive(context: ChannelHandlerContext) {
        lock.lock()
        closedAt = Date()
        lock.unlock()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    var state: (frames: [TransportFrame], closedAt: Date?) {
        lock.lock()
        defer { lock.unlock() }
        return (frames, closedAt)
    }

    /// A TCP connection that writes `bytes` and decodes intermediate frames.
    static func connect(
        port: Int, sending bytes: [UInt8], group: any EventLoopGroup
    ) async throws -> (any Channel, Watcher) {
        let watcher = Watcher()
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(FrameDecoder(framing: .intermediate, role: .client)))
                    try channel.pipeline.syncOperations.addHandler(watcher)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        return (channel, watcher)
    }
}

/// 2,000 connections at once from one address, each naming the intermediate transport.
enum Flood {
    static func run(
        count: Int, port: Int, group: any EventLoopGroup
    ) async throws -> (admitted: Int, refused: Int, other: Int) {
        var connections: [(any Channel, Watcher)] = []
        for _ in 0..<count {
            connections.append(try await Watcher.connect(port: port, sending: [0xee, 0xee, 0xee, 0xee], group: group))
        }
        try await Task.sleep(nanoseconds: 2_000_000_000)
        var admitted = 0
        var refused = 0
        var other = 0
        for (_, watcher) in connections {
            let state = watcher.state
            if state.frames == [.transportError(-429)] && state.closedAt != nil {
                refused += 1
            } else if state.frames.isEmpty && state.closedAt == nil {
                admitted += 1
            } else {
                other += 1
            }
        }
        for (channel, _) in connections { try? await channel.close() }
        return (admitted, refused, other)
    }
}

/// How long the server keeps a connection that sent half a frame.
enum Stall {
    static func lifetime(port: Int, group: any EventLoopGroup) async throws -> Double {
        let start = Date()
        // Intermediate: a frame that claims 1,000 bytes, of which 100 arrive.
        let (channel, watcher) = try await Watcher.connect(
            port: port, sending: [0xee, 0xee, 0xee, 0xee, 0xe8, 0x03, 0, 0] + [UInt8](repeating: 1, count: 100),
            group: group)
        while watcher.state.closedAt == nil, Date().timeIntervalSince(start) < 120 {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        try? await channel.close()
        return (watcher.state.closedAt ?? Date()).timeIntervalSince(start)
    }
}

/// Fills the server's resend cache with 100 `help.getConfig` answers, then names them in 8,192 ids per
/// msg_resend_req (each about 82 times; and asks their state with msgs_state_req), 200 times each over 8 connections,
/// reading every reply. Re-sending every named copy, as the server once did, would put 8,192 messages in each reply.
enum ResendAttack {
    static func run(
        server: ServerProcess, group: any EventLoopGroup
    ) async throws -> (before: Int, after: Int, largestReply: Int) {
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .intermediate)
        let keyed = try await MTProtoConnection.connect(to: endpoint, publicKeys: [server.publicKey], group: group)
        _ = try await keyed.invoke(MTProto.functions.ping(pingId: 0))
        let key = keyed.key
        await keyed.close()
        let before = server.rss()
        let port = server.port
        let largest = LargestBox()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for _ in 0..<8 {
                tasks.addTask {
                    let watcher = Watcher()
                    let channel = try await TransportClient.connect(
                        host: "127.0.0.1", port: port, framing: .intermediate, group: group
                    ) { _ in [watcher] }
                    var session = ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset)
                    func send(_ body: [UInt8]) async throws {
                        for packet in try session.send(body, now: Date().timeIntervalSince1970).packets {
                            try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: packet)))
                        }
                    }
                    // 100 calls: their answers are what the server caches for re-sending.
                    for _ in 0..<100 { try await send(Api.functions.help.getConfig().serialized()) }
                    try await Task.sleep(nanoseconds: 300_000_000)
                    // The server's msg_ids: read back from what arrived.
                    var serverIds: [Int64] = []
                    for frame in watcher.state.frames {
                        guard case .packet(let payload, _) = frame,
                            let message = try? EncryptedMessage.decrypt(
                                Array(payload.readableBytesView), authKey: key.authKey, direction: .serverToClient)
                        else { continue }
                        serverIds.append(message.messageId)
                        if message.body.count >= 4,
                            ServiceCodec.constructorId(of: message.body) == ServiceCodec.containerId,
                            let children = try? ServiceCodec.parseContainer(message.body)
                        {
                            serverIds += children.map(\.messageId)
                        }
                    }
                    let named = (0..<8192).map { serverIds.isEmpty ? Int64($0) : serverIds[$0 % serverIds.count] }
                    for _ in 0..<200 {
                        try await send(MTProto.MsgResendReq.msgResendReq(.init(msgIds: named)).serialized())
                        try await send(MTProto.MsgsStateReq.msgsStateReq(.init(msgIds: named)).serialized())
                    }
                    try await Task.sleep(nanoseconds: 1_000_000_000)
                    for frame in watcher.state.frames {
                        if case .packet(let payload, _) = frame { largest.note(payload.readableBytes) }
                    }
                    try? await channel.close()
                }
            }
            try await tasks.waitForAll()
        }
        return (before, server.rss(), largest.value)
    }
}

/// The largest value noted from several tasks. `@unchecked Sendable`: `value` is guarded by `lock`.
final class LargestBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0

    func note(_ value: Int) {
        lock.lock()
        stored = max(stored, value)
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
