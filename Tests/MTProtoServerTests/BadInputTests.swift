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
    static func encrypted(_ key: AuthKeyExchangeResult, messageId: Int64, body: [UInt8], sessionId: Int64 = 99) -> [UInt8] {
        EncryptedMessage.encrypt(
            authKey: key.authKey, direction: .clientToServer, salt: key.serverSalt, sessionId: sessionId,
            messageId: messageId, seqNo: 1, body: body)
    }

    static func messageId(at time: Double) -> Int64 {
        (Int64(time) << 32) | Int64(((time - time.rounded(.down)) * 4_294_967_296)) & 0xffff_fffc
    }

    /// 64 random bytes as a client draws an obfuscated header (core.telegram.org "Transport obfuscation"): never a
    /// first byte of 0xef (abridged), a first word that names another transport (`HEAD`, `POST`, `GET `, `OPTI`,
    /// 0xdddddddd, 0xeeeeeeee) or a zero second word — otherwise the server rightly reads another transport and waits
    /// for the rest of its frame.
    static func randomObfuscatedHeader(using generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        let reserved: Set<[UInt8]> = [Array("HEAD".utf8), Array("POST".utf8), Array("GET ".utf8), Array("OPTI".utf8), [0xdd, 0xdd, 0xdd, 0xdd], [0xee, 0xee, 0xee, 0xee]]
        while true {
            let bytes = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes[0] != 0xef, !reserved.contains(Array(bytes[0..<4])), bytes[4..<8] != [0, 0, 0, 0] { return bytes }
        }
    }

    @Test func garbageHugeLengthsAndTruncationCloseOnlyThatConnection() async throws {
        let fixture = ServerFixture()
        try await fixture.start()
        let key = try await fixture.createKey()
        var generator = SystemRandomNumberGenerator()
        let cases: [[UInt8]] = [
            Array("POST /api HTTX\r\n\r\n".utf8),  // HTTP that does not parse (400, then closed)
            [0xee, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0x7f],  // intermediate, 2 GiB length
            [0xef, 0x7f, 0xff, 0xff, 0xff],  // abridged, huge length
            [0x10, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 1, count: 8),  // full, bad CRC after truncation
            Self.randomObfuscatedHeader(using: &generator),  // an obfuscated header naming no known protocol
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
        let fixture = ServerFixture()
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
        let fixture = ServerFixture()
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
        guard case .packet(let payload, _) = recorder.snapshot.frames[1] else {
            Issue.record("expected a packet, got \(recorder.snapshot.frames[1])")
            return
        }
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
