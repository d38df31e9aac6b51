import MTProtoTransport
import NIOCore
import NIOEmbedded
import Testing

/// MTProxy's fake-TLS opening both ways, sans I/O and through the client's handler on an embedded channel: the
/// ClientHello's shape (517 bytes, the SNI, a signed random with the time in it), the proxy's check of it (the right
/// key, the clock, tampering), the client's check of the answer, and the records that carry MTProto afterwards.
@Suite struct FakeTLSTests {
    static let key: [UInt8] = Array(100..<116)
    static let now: UInt32 = 1_790_000_000

    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func hello(domain: String = "example.com", key: [UInt8] = key, time: UInt32 = now, seed: UInt64 = 1)
        -> [UInt8]
    {
        var generator = Seeded(state: seed)
        return FakeTLSClientHello.make(domain: domain, key: key, unixTime: time, using: &generator)
    }

    /// `bytes` read as one big-endian number.
    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }

    /// `value` as two big-endian bytes.
    static func twoBytes(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }

    @Test func theHelloLooksLikeABrowsersAndNamesTheDomain() {
        for domain in ["example.com", String(repeating: "a", count: 182)] {
            let hello = Self.hello(domain: domain)
            #expect(hello.count == 517)
            #expect(hello.starts(with: FakeTLSServerHello.prefix))
            // The record and handshake lengths agree with the bytes.
            #expect(Self.bigEndian(hello[3...4]) == 512)
            #expect(Self.bigEndian(hello[6...8]) == 508)
            // The SNI extension holds the domain: 00 00, lengths, name type 0, the name.
            let name = Array(domain.utf8)
            var sni: [UInt8] = [0x00, 0x00]
            sni += Self.twoBytes(name.count + 5)
            sni += Self.twoBytes(name.count + 3)
            sni.append(0x00)
            sni += Self.twoBytes(name.count)
            sni += name
            #expect(hello.firstRange(of: sni) != nil, "\(domain.count)-byte domain")
        }
        // Two hellos differ (session id, key share, extension order), though from the same key and time.
        #expect(Self.hello(seed: 1) != Self.hello(seed: 2))
    }

    @Test func theProxyFindsTheKeyAndTheTime() throws {
        let hello = Self.hello()
        let other: [UInt8] = Array(0..<16)
        let accepted = try FakeTLSServerHello.check(hello, keys: [other, Self.key], now: Self.now + 30)
        #expect(accepted.keyIndex == 1)
        #expect(accepted.clientTime == Self.now)
        #expect(accepted.clientDigest == Array(hello[11..<43]))
        #expect(accepted.sessionId == Array(hello[44..<76]))
        #expect(throws: FakeTLSServerHello.Rejection.unknownKey) {
            try FakeTLSServerHello.check(hello, keys: [other], now: Self.now)
        }
        // Too old (a replayed hello, or a clock far behind) and too far ahead.
        #expect(throws: FakeTLSServerHello.Rejection.clockSkew(seconds: -1201)) {
            try FakeTLSServerHello.check(hello, keys: [Self.key], now: Self.now + 1201)
        }
        #expect(throws: FakeTLSServerHello.Rejection.clockSkew(seconds: 601)) {
            try FakeTLSServerHello.check(hello, keys: [Self.key], now: Self.now - 601)
        }
        // Any byte changed outside the digest breaks the signature; a short or foreign hello is not one.
        for index in [0 + 100, 200, 516] {
            var tampered = hello
            tampered[index] ^= 1
            #expect(throws: FakeTLSServerHello.Rejection.unknownKey) {
                try FakeTLSServerHello.check(tampered, keys: [Self.key], now: Self.now)
            }
        }
        #expect(throws: FakeTLSServerHello.Rejection.notAClientHello) {
            try FakeTLSServerHello.check(Array(hello.dropLast()), keys: [Self.key], now: Self.now)
        }
        #expect(throws: FakeTLSServerHello.Rejection.notAClientHello) {
            try FakeTLSServerHello.check(
                Array("GET / HTTP/1.1\r\n".utf8) + [UInt8](repeating: 0, count: 501), keys: [Self.key], now: Self.now)
        }
    }

    @Test func theClientChecksTheProxysAnswer() throws {
        let hello = Self.hello()
        let accepted = try FakeTLSServerHello.check(hello, keys: [Self.key], now: Self.now)
        var generator = Seeded(state: 9)
        let answer = FakeTLSServerHello.answer(to: accepted, key: Self.key, certificateLength: 1_000, using: &generator)
        let digest = Array(hello[11..<43])
        // Byte by byte, the length is unknown until the last byte is in.
        for count in 0..<answer.count {
            #expect(try FakeTLSClientHello.serverHelloLength(answer[0..<count]) == nil)
        }
        #expect(try FakeTLSClientHello.serverHelloLength(answer[...]) == answer.count)
        #expect(try FakeTLSClientHello.serverHelloLength((answer + [0x17, 0x03])[...]) == answer.count)
        try FakeTLSClientHello.verifyServerHello(answer, clientDigest: digest, key: Self.key)
        // Signed for another hello, with another key, or altered: refused.
        #expect(throws: FakeTLSClientHello.Failure.digestMismatch) {
            try FakeTLSClientHello.verifyServerHello(answer, clientDigest: Array(digest.reversed()), key: Self.key)
        }
        #expect(throws: FakeTLSClientHello.Failure.digestMismatch) {
            try FakeTLSClientHello.verifyServerHello(answer, clientDigest: digest, key: Array(0..<16))
        }
        var altered = answer
        altered[answer.count - 1] ^= 0x80
        #expect(throws: FakeTLSClientHello.Failure.digestMismatch) {
            try FakeTLSClientHello.verifyServerHello(altered, clientDigest: digest, key: Self.key)
        }
        // Not TLS at all: refused as soon as the first bytes disagree.
        #expect(throws: FakeTLSClientHello.Failure.notAServerHello) {
            try FakeTLSClientHello.serverHelloLength(Array("HTTP/1.1 400".utf8)[...])
        }
        #expect(throws: FakeTLSClientHello.Failure.notAServerHello) {
            try FakeTLSClientHello.serverHelloLength([0x16][...] + [0x03, 0x01])
        }
    }

    @Test func recordsCarryAnyPayloadCutAnywhere() throws {
        var generator = Seeded(state: 5)
        for _ in 0..<20 {
            let payload = (0..<Int.random(in: 0...20_000, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let stream =
                FakeTLSRecords.changeCipherSpec
                + FakeTLSRecords.wrap(payload, chunk: FakeTLSRecords.clientRecordPayload)
            var reader = FakeTLSRecords.Reader()
            var received: [UInt8] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...4_000, using: &generator))
                received += try reader.receive(stream[offset..<end])
                offset = end
            }
            #expect(received == payload)
        }
        var reader = FakeTLSRecords.Reader()
        #expect(throws: FakeTLSRecords.Failure.recordTooLong(16_641)) {
            try reader.receive([0x17, 0x03, 0x03, 0x41, 0x01])
        }
        var other = FakeTLSRecords.Reader()
        #expect(throws: FakeTLSRecords.Failure.unexpectedRecord(header: [0x15, 0x03, 0x03, 0x00, 0x02])) {
            try other.receive([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])  // an alert
        }
    }

    @Test func theHandlerHoldsWritesUntilTheProxyHasAnswered() throws {
        let channel = EmbeddedChannel()
        let handler = FakeTLSClientHandler(key: Self.key, domain: "example.com", clock: { Self.now })
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 443)).wait()
        let hello = try #require(try channel.readOutbound(as: ByteBuffer.self)).readableBytesView
        let accepted = try FakeTLSServerHello.check(Array(hello), keys: [Self.key], now: Self.now)
        // Written before the answer: held back, its promise pending.
        let firstWrite = channel.writeAndFlush(ByteBuffer(bytes: Array("first".utf8)))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        var firstWritten = false
        firstWrite.whenSuccess { firstWritten = true }
        #expect(!firstWritten)
        var generator = Seeded(state: 3)
        let answer = FakeTLSServerHello.answer(to: accepted, key: Self.key, certificateLength: 300, using: &generator)
        // The answer and a first record in one read, split inside the answer's last record.
        let data = answer + FakeTLSRecords.wrap(Array("pushed".utf8), chunk: 100)
        try channel.writeInbound(ByteBuffer(bytes: data[0..<200]))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        try channel.writeInbound(ByteBuffer(bytes: data[200...]))
        let sent = try #require(try channel.readOutbound(as: ByteBuffer.self)).readableBytesView
        #expect(Array(sent) == FakeTLSRecords.changeCipherSpec + FakeTLSRecords.wrap(Array("first".utf8), chunk: 100))
        #expect(firstWritten)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: Array("pushed".utf8)))
        // Afterwards writes go out at once, without a second ChangeCipherSpec.
        try channel.writeOutbound(ByteBuffer(bytes: Array("second".utf8)))
        let next = try #require(try channel.readOutbound(as: ByteBuffer.self)).readableBytesView
        #expect(Array(next) == FakeTLSRecords.wrap(Array("second".utf8), chunk: 100))
        _ = try channel.finish()
    }

    @Test func anAnswerNotSignedWithTheKeyClosesTheConnection() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            FakeTLSClientHandler(key: Self.key, domain: "example.com", clock: { Self.now }))
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 443)).wait()
        let hello = Array(try #require(try channel.readOutbound(as: ByteBuffer.self)).readableBytesView)
        let accepted = try FakeTLSServerHello.check(hello, keys: [Self.key], now: Self.now)
        var generator = Seeded(state: 3)
        let forged = FakeTLSServerHello.answer(to: accepted, key: Array(0..<16), using: &generator)
        #expect(throws: FakeTLSClientHello.Failure.digestMismatch) { try channel.writeInbound(ByteBuffer(bytes: forged)) }
        #expect(!channel.isActive)
    }
}
