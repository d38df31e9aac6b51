import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
import ServerAPI
import TLRuntime
import Testing

/// Collects what a raw connection receives and notices when it closes.
final class Recorder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = TransportFrame
    private let lock = NSLock()
    private var frames: [TransportFrame] = []
    private var closed = false
    /// When the connection closed, noted on its event loop (not when a test task next looks, which on a busy machine
    /// may be much later).
    private var closedTime: Date?
    private var openedTime: Date?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lock.lock()
        frames.append(unwrapInboundIn(data))
        lock.unlock()
    }

    func channelActive(context: ChannelHandlerContext) {
        lock.lock()
        openedTime = Date()
        lock.unlock()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        lock.lock()
        closed = true
        closedTime = Date()
        lock.unlock()
    }

    /// Seconds from the connection's opening to its closing, both noted on its event loop.
    var lifetime: Double? {
        lock.lock()
        defer { lock.unlock() }
        guard let openedTime, let closedTime else { return nil }
        return closedTime.timeIntervalSince(openedTime)
    }

    /// When the connection closed, if it has.
    var closedAt: Date? {
        lock.lock()
        defer { lock.unlock() }
        return closedTime
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    var snapshot: (frames: [TransportFrame], closed: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (frames, closed)
    }

    /// Polls until `condition` holds or `timeout` seconds pass.
    func wait(timeout: Double = 30, until condition: ((frames: [TransportFrame], closed: Bool)) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(snapshot) { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition(snapshot)
    }
}

final class ServerFixture {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
    var server: MTProtoServer!
    var port: Int { server.dataCenters[1].port }

    /// Starts a server with `limits`, answering API calls with `handler` (ServerAPI's by default), writing `trace`,
    /// subscribing sessions to `updates`.
    func start(
        limits: ServerLimits = ServerLimits(), handler: (any RPCHandler)? = nil, trace: ServerTrace? = nil,
        updates: UpdateGateway? = nil
    ) async throws {
        var configuration = MTProtoServer.Configuration(dataDirectory: directory, limits: limits, trace: trace)
        configuration.newRSAKey = { try Self.processKey.get() }
        server = try await MTProtoServer.start(configuration, group: group, updates: updates) {
            handler ?? ServerAPIHandler(dataCenters: $0)
        }
    }

    /// One RSA key for every fixture of the process (a key generation costs ~0.15 s of CPU): ServerTestSupport's
    /// `BackendServer.processKey` is out of reach here, as these tests stay off the client modules it brings.
    static let processKey = Result { try RSAPrivateKey.generate(bits: 2048) }

    func stop() async throws {
        try await server.close()
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A raw TCP connection that writes `bytes` as they are.
    func rawBytes(_ bytes: [UInt8]) async throws -> (any Channel, Recorder) {
        let recorder = Recorder()
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(framing: .intermediate, role: .client)))
                    try channel.pipeline.syncOperations.addHandler(recorder)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        // On a loaded machine the server's timeouts may close the connection before these bytes go out; the
        // recorder then shows it closed, which is what the tests look at.
        try? await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        return (channel, recorder)
    }

    /// An MTProto connection on the intermediate framing that sends frames we build by hand.
    func framed() async throws -> (any Channel, Recorder) {
        let recorder = Recorder()
        let channel = try await TransportClient.connect(host: "127.0.0.1", port: port, framing: .intermediate, group: group) { _ in [recorder] }
        return (channel, recorder)
    }

    /// Runs a key exchange over `channel` by hand and returns the key.
    func createKey() async throws -> AuthKeyExchangeResult {
        let (channel, recorder) = try await framed()
        var exchange = AuthKeyClientExchange(publicKeys: [server.keys.rsaKey.publicKey], dcId: 2)
        var ids = MessageIdGenerator()
        var body = exchange.start()
        var seen = 0
        while true {
            let message = PlainMessage(messageId: ids.next(.client, now: Date().timeIntervalSince1970), body: body)
            try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: message.serialized())))
            let arrived = await recorder.wait { $0.frames.count > seen }
            try #require(arrived)
            guard case .packet(let payload, _) = recorder.snapshot.frames[seen] else { throw TransportError.invalidLength(0) }
            seen += 1
            let answer = try PlainMessage(parsing: Array(payload.readableBytesView))
            switch try exchange.receive(answer.body, now: Date().timeIntervalSince1970) {
            case .send(let next): body = next
            case .completed(let result):
                try? await channel.close()
                return result
            }
        }
    }

    /// Whether a well-behaved client still gets answers.
    func goodConnectionWorks(_ key: AuthKeyExchangeResult) async throws -> Bool {
        let (channel, recorder) = try await framed()
        defer { channel.close(promise: nil) }
        var session = ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset)
        let (_, packets) = try session.send(MTProto.functions.ping(pingId: 5).serialized(), now: Date().timeIntervalSince1970)
        for packet in packets { try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: packet))) }
        return await recorder.wait { !$0.frames.isEmpty }
    }
}

extension ServerFixture {
    /// A framed connection with an encrypted session on `key`, for sending calls and reading answers.
    func session(_ key: AuthKeyExchangeResult) async throws -> SessionConnection {
        let (channel, recorder) = try await framed()
        return SessionConnection(
            channel: channel, recorder: recorder,
            session: ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset))
    }
}

/// One client session over one framed connection, driven by hand.
final class SessionConnection: @unchecked Sendable {
    let channel: any Channel
    let recorder: Recorder
    var session: ClientSession
    private var consumed = 0

    init(channel: any Channel, recorder: Recorder, session: ClientSession) {
        self.channel = channel
        self.recorder = recorder
        self.session = session
    }

    /// Encrypts and sends `body`; returns the request's token.
    @discardableResult
    func send(_ body: [UInt8], flush: Bool = true) async throws -> Int64 {
        let (token, packets) = try session.send(body, now: Date().timeIntervalSince1970)
        for packet in packets {
            if flush {
                try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: packet)))
            } else {
                channel.write(TransportFrame.packet(ByteBuffer(bytes: packet)), promise: nil)
            }
        }
        return token
    }

    /// Decrypts every frame received since the last call; returns the events.
    func events() throws -> [ClientSession.Event] {
        let frames = recorder.snapshot.frames
        var events: [ClientSession.Event] = []
        while consumed < frames.count {
            defer { consumed += 1 }
            guard case .packet(let payload, _) = frames[consumed] else { continue }
            events += try session.receive(Array(payload.readableBytesView), now: Date().timeIntervalSince1970).events
        }
        return events
    }

    /// Waits until `count` results (answers or errors) have arrived, or `timeout` seconds pass; returns how many did.
    func waitForResults(_ count: Int, timeout: Double = 20) async throws -> Int {
        var results = 0
        let deadline = Date().addingTimeInterval(timeout)
        while results < count, Date() < deadline {
            results += try events().filter { if case .result = $0 { return true } else { return false } }.count
            if results < count { try await Task.sleep(nanoseconds: 10_000_000) }
        }
        return results
    }

    func close() async {
        try? await channel.close()
    }
}

/// An API handler that counts the calls it starts and can hold them until released, or answer with a result of a
/// chosen size.
final class ProbeHandler: RPCHandler, @unchecked Sendable {
    private let lock = NSCondition()
    private var startedCount = 0
    private var holding: Bool
    let resultSize: Int

    init(holding: Bool = false, resultSize: Int = 4) {
        self.holding = holding
        self.resultSize = resultSize
    }

    var started: Int {
        lock.lock()
        defer { lock.unlock() }
        return startedCount
    }

    /// Runs on an RPC worker thread, which it blocks while holding.
    func handle(_ call: RPCCall) -> RPCResponse {
        lock.lock()
        startedCount += 1
        while holding { lock.wait() }
        lock.unlock()
        // boolTrue followed by padding bytes the client ignores: any size of result, still one message.
        return .result([0xb5, 0x75, 0x72, 0x99] + [UInt8](repeating: 0, count: max(0, resultSize - 4)))
    }

    /// Lets every held call (and every later one) finish.
    func release() {
        lock.lock()
        holding = false
        lock.broadcast()
        lock.unlock()
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass.
func eventually(timeout: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return try condition()
}
