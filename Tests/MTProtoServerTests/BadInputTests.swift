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

/// Hostile and broken input against a running server: each bad connection is closed or answered with the
/// protocol's error, the server stays up, and a good connection opened alongside keeps working.
@Suite(.serialized) struct BadInputTests {
    /// Collects what a raw connection receives and notices when it closes.
    final class Recorder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = TransportFrame
        private let lock = NSLock()
        private var frames: [TransportFrame] = []
        private var closed = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            lock.lock()
            frames.append(unwrapInboundIn(data))
            lock.unlock()
        }

        func channelInactive(context: ChannelHandlerContext) {
            lock.lock()
            closed = true
            lock.unlock()
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
        func wait(timeout: Double = 10, until condition: ((frames: [TransportFrame], closed: Bool)) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(snapshot) { return true }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return condition(snapshot)
        }
    }

    final class Fixture {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString)")
        var server: MTProtoServer!
        var port: Int { server.dataCenters[1].port }

        func start() async throws {
            server = try await MTProtoServer.start(.init(dataDirectory: directory), group: group) {
                ServerAPIHandler(dataCenters: $0)
            }
        }

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
            try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
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

    static func encrypted(_ key: AuthKeyExchangeResult, messageId: Int64, body: [UInt8], sessionId: Int64 = 99) -> [UInt8] {
        EncryptedMessage.encrypt(
            authKey: key.authKey, direction: .clientToServer, salt: key.serverSalt, sessionId: sessionId,
            messageId: messageId, seqNo: 1, body: body)
    }

    static func messageId(at time: Double) -> Int64 {
        (Int64(time) << 32) | Int64(((time - time.rounded(.down)) * 4_294_967_296)) & 0xffff_fffc
    }

    @Test func garbageHugeLengthsAndTruncationCloseOnlyThatConnection() async throws {
        let fixture = Fixture()
        try await fixture.start()
        let key = try await fixture.createKey()
        var generator = SystemRandomNumberGenerator()
        let cases: [[UInt8]] = [
            Array("GET / HTTP/1.1\r\n\r\n".utf8),  // HTTP
            [0xee, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0x7f],  // intermediate, 2 GiB length
            [0xef, 0x7f, 0xff, 0xff, 0xff],  // abridged, huge length
            [0x10, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 1, count: 8),  // full, bad CRC after truncation
            (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) },  // random "obfuscated" header
        ]
        for bytes in cases {
            let (channel, recorder) = try await fixture.rawBytes(bytes)
            if bytes.count == 16 { try? await channel.close() }  // hang up (the server may already have closed)
            let closed = await recorder.wait(timeout: 10) { $0.closed }
            #expect(closed, "\(bytes.prefix(8))")
            #expect(try await fixture.goodConnectionWorks(key))
        }
        try await fixture.stop()
    }

    @Test func unknownKeyGetsMinus404AndWrongMsgKeyCloses() async throws {
        let fixture = Fixture()
        try await fixture.start()
        let key = try await fixture.createKey()
        let forged = AuthKeyExchangeResult(authKey: AuthKey(bytes: SecureRandom.bytes(256))!, serverSalt: 1, timeOffset: 0)
        var (channel, recorder) = try await fixture.framed()
        let now = Date().timeIntervalSince1970
        try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: Self.encrypted(forged, messageId: Self.messageId(at: now), body: MTProto.functions.ping(pingId: 1).serialized()))))
        #expect(await recorder.wait { $0.closed })
        #expect(recorder.snapshot.frames == [.transportError(-404)])
        // A right key id with a flipped ciphertext bit: the msg_key check fails and the connection closes.
        (channel, recorder) = try await fixture.framed()
        var tampered = Self.encrypted(key, messageId: Self.messageId(at: now), body: MTProto.functions.ping(pingId: 1).serialized())
        tampered[40] ^= 0x01
        try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: tampered)))
        #expect(await recorder.wait { $0.closed })
        #expect(recorder.snapshot.frames.isEmpty)
        #expect(try await fixture.goodConnectionWorks(key))
        try await fixture.stop()
    }

    @Test func replayedMessagesAreIgnoredAndExpiredOnesGetCode16() async throws {
        let fixture = Fixture()
        try await fixture.start()
        let key = try await fixture.createKey()
        let (channel, recorder) = try await fixture.framed()
        let now = Date().timeIntervalSince1970
        let ping = Self.encrypted(key, messageId: Self.messageId(at: now), body: MTProto.functions.ping(pingId: 7).serialized())
        try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: ping)))
        #expect(await recorder.wait { $0.frames.count == 1 })
        try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: ping)))  // the same bytes again
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(recorder.snapshot.frames.count == 1, "a replayed msg_id was answered")
        // A msg_id from ten minutes ago: bad_msg_notification with error code 16.
        let old = Self.encrypted(key, messageId: Self.messageId(at: now - 600), body: MTProto.functions.ping(pingId: 8).serialized())
        try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: old)))
        #expect(await recorder.wait { $0.frames.count == 2 })
        guard case .packet(let payload, _) = recorder.snapshot.frames[1] else { return }
        let decrypted = try EncryptedMessage.decrypt(Array(payload.readableBytesView), authKey: key.authKey, direction: .serverToClient)
        var reader = TLReader(decrypted.body)
        let object = try MTProto.parseObject(&reader)
        guard case .badMsgNotification(let notification) = object as? MTProto.BadMsgNotification else {
            Issue.record("expected bad_msg_notification, got \(object)")
            return
        }
        #expect(notification.errorCode == 16)
        try? await channel.close()
        try await fixture.stop()
    }
}
