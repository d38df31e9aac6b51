@testable import MTProtoTransport
import NIOCore
import NIOEmbedded
import TestVectors
import Testing

/// obfuscated2 (MTProto transports §Transport obfuscation): header rules, key derivation both ways, secrets.
@Suite struct ObfuscationTests {
    static let obfuscatable: [TransportFraming] = [.abridged, .intermediate, .paddedIntermediate]

    @Test func headersAvoidEveryForbiddenStart() throws {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let header = try ObfuscatedHeader.makeClientHeader(
                framing: .abridged, dcId: 2, secret: nil, using: &generator)
            #expect(header.bytes.count == 64)
            #expect(header.bytes[0] != 0xef)
            #expect(!ObfuscatedHeader.forbiddenFirstWords.contains(Array(header.bytes[0..<4])))
            #expect(!header.bytes[4..<8].allSatisfy { $0 == 0 })
            // Never mistaken for a plain transport by the server's classifier.
            #expect(TransportClassifier.classify(ByteBuffer(bytes: header.bytes).readableBytesView) == .success(.obfuscated))
        }
    }

    @Test(arguments: obfuscatable)
    func serverRecoversFramingDcAndBothStreams(_ framing: TransportFraming) throws {
        var generator = SeededGenerator(seed: 7)
        let client = try ObfuscatedHeader.makeClientHeader(framing: framing, dcId: -3, secret: nil, using: &generator)
        let server = try #require(ObfuscatedHeader.acceptServerHeader(client.bytes, secrets: []))
        #expect(server.framing == framing)
        #expect(server.dcId == -3)
        // Client → server, then server → client, over several writes of odd sizes.
        for size in [1, 15, 16, 17, 1000] {
            let plain = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            var wire = plain
            client.ciphers.send.apply(&wire)
            #expect(wire != plain || size < 2)
            server.ciphers.receive.apply(&wire)
            #expect(wire == plain)
            var back = plain
            server.ciphers.send.apply(&back)
            client.ciphers.receive.apply(&back)
            #expect(back == plain)
        }
    }

    @Test func theTagIsHiddenUntilDecrypted() throws {
        var generator = SeededGenerator(seed: 9)
        let header = try ObfuscatedHeader.makeClientHeader(framing: .intermediate, dcId: 2, secret: nil, using: &generator)
        #expect(Array(header.bytes[56..<60]) != [0xee, 0xee, 0xee, 0xee])
    }

    @Test func proxySecretsMustMatch() throws {
        var generator = SeededGenerator(seed: 11)
        let secret = (0..<16).map { UInt8($0 + 1) }
        let header = try ObfuscatedHeader.makeClientHeader(
            framing: .intermediate, dcId: 2, secret: secret, using: &generator)
        #expect(ObfuscatedHeader.acceptServerHeader(header.bytes, secrets: [secret])?.framing == .intermediate)
        let other = (0..<16).map { UInt8(100 + $0) }
        #expect(ObfuscatedHeader.acceptServerHeader(header.bytes, secrets: [other]) == nil)
        #expect(ObfuscatedHeader.acceptServerHeader(header.bytes, secrets: []) == nil)
        #expect(ObfuscatedHeader.acceptServerHeader(header.bytes, secrets: [other, secret])?.framing == .intermediate)
    }

    @Test func ddSecretsRequirePaddedIntermediate() throws {
        let secret = [0xdd] + (0..<16).map { UInt8($0 + 1) }
        #expect(throws: TransportError.invalidObfuscatedHeader) {
            _ = try ObfuscatedHeader.makeClientHeader(framing: .abridged, dcId: 2, secret: secret)
        }
        let header = try ObfuscatedHeader.makeClientHeader(framing: .paddedIntermediate, dcId: 2, secret: secret)
        #expect(ObfuscatedHeader.acceptServerHeader(header.bytes, secrets: [secret])?.framing == .paddedIntermediate)
        #expect(throws: TransportError.fullFramingCannotBeObfuscated) {
            _ = try ObfuscatedHeader.makeClientHeader(framing: .full, dcId: 2, secret: nil)
        }
    }

    @Test(arguments: obfuscatable)
    func obfuscatedPipelinesTalkThroughTheDetector(_ framing: TransportFraming) throws {
        let server = EmbeddedChannel()
        try server.pipeline.syncOperations.addHandler(TransportPipeline.serverDetector(consumer: { [] }))
        let client = EmbeddedChannel()
        try TransportPipeline.addClientHandlers(
            framing: framing, obfuscation: .obfuscated2(dcId: 2), to: client.pipeline.syncOperations)
        let packet = TransportFrame.packet(ByteBuffer(bytes: Array(repeating: 0x42, count: 64)))
        try client.writeOutbound(packet)
        try TransportPipelineTests.shuttle(client, server, chunk: 5)
        var received = try TransportPipelineTests.frames(server)
        if framing == .paddedIntermediate { received = zip(received, [packet]).map(FrameCodecTests.stripPadding) }
        #expect(received == [packet])
        try server.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [1, 2, 3, 4])))
        try TransportPipelineTests.shuttle(server, client)
        var answer = try TransportPipelineTests.frames(client)
        let expected = [TransportFrame.packet(ByteBuffer(bytes: [1, 2, 3, 4]))]
        if framing == .paddedIntermediate { answer = zip(answer, expected).map(FrameCodecTests.stripPadding) }
        #expect(answer == expected)
    }

    @Test func aHeaderNoSecretExplainsClosesTheConnection() throws {
        let server = EmbeddedChannel()
        try server.pipeline.syncOperations.addHandler(TransportPipeline.serverDetector(secrets: [Array(repeating: 1, count: 16)], consumer: { [] }))
        let header = try ObfuscatedHeader.makeClientHeader(framing: .abridged, dcId: 2, secret: nil)
        #expect(throws: TransportError.invalidObfuscatedHeader) {
            try server.writeInbound(ByteBuffer(bytes: header.bytes))
        }
        #expect(!server.isActive)
    }
}
