import MTProtoTransport
import NIOCore
import NIOEmbedded
import Testing

/// Client and server pipelines on `EmbeddedChannel`s, bytes shuttled between them by hand: deterministic, no
/// sockets, the same handlers the real connections use.
@Suite struct TransportPipelineTests {
    /// A server channel whose detector installs the detected framing's decoder and encoder.
    static func makeServer() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let detector = TransportDetector { detected, context in
            guard case .plain(let framing, _) = detected else { throw TransportError.invalidObfuscatedHeader }
            try context.pipeline.syncOperations.addHandlers(
                [ByteToMessageHandler(FrameDecoder(framing: framing, role: .server)),
                 FrameEncoder(framing: framing, role: .server, sendsPreamble: false)],
                position: .after(context.handler))
        }
        try channel.pipeline.syncOperations.addHandler(detector)
        return channel
    }

    static func makeClient(_ framing: TransportFraming) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(FrameDecoder(framing: framing, role: .client)),
            FrameEncoder(framing: framing, role: .client, sendsPreamble: true),
        ])
        return channel
    }

    /// Moves every byte written on `from` into `to`, `chunk` bytes per read.
    static func shuttle(_ from: EmbeddedChannel, _ to: EmbeddedChannel, chunk: Int = .max) throws {
        while var bytes = try from.readOutbound(as: ByteBuffer.self) {
            while bytes.readableBytes > 0 {
                try to.writeInbound(bytes.readSlice(length: min(chunk, bytes.readableBytes))!)
            }
        }
    }

    static func frames(_ channel: EmbeddedChannel) throws -> [TransportFrame] {
        var frames: [TransportFrame] = []
        while let frame = try channel.readInbound(as: TransportFrame.self) { frames.append(frame) }
        return frames
    }

    @Test(arguments: TransportFraming.allCases)
    func serverDetectsEachPlainFramingAndAnswers(_ framing: TransportFraming) throws {
        let server = try Self.makeServer()
        let client = try Self.makeClient(framing)
        let request = TransportFrame.packet(ByteBuffer(bytes: Array(repeating: 7, count: 40)))
        try client.writeOutbound(request)
        try client.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [1, 2, 3, 4])))
        try Self.shuttle(client, server, chunk: 1)  // detection must cope with bytes trickling in
        let sent = [request, .packet(ByteBuffer(bytes: [1, 2, 3, 4]))]
        var received = try Self.frames(server)
        if framing == .paddedIntermediate { received = zip(received, sent).map(FrameCodecTests.stripPadding) }
        #expect(received == sent)

        try server.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [9, 9, 9, 9, 9, 9, 9, 9])))
        try server.writeOutbound(TransportFrame.transportError(-404))
        try Self.shuttle(server, client)
        let answers = [TransportFrame.packet(ByteBuffer(bytes: [9, 9, 9, 9, 9, 9, 9, 9])), .transportError(-404)]
        var got = try Self.frames(client)
        if framing == .paddedIntermediate { got = zip(got, answers).map(FrameCodecTests.stripPadding) }
        #expect(got == answers)
        _ = try server.finish()
        _ = try client.finish()
    }

    @Test func httpIsRefusedAndTheConnectionClosed() throws {
        let server = try Self.makeServer()
        #expect(throws: TransportError.unknownTransport(firstBytes: Array("POST".utf8))) {
            try server.writeInbound(ByteBuffer(string: "POST / HTTP/1.1\r\n"))
        }
        #expect(!server.isActive)
    }

    @Test func hugeLengthClosesTheConnection() throws {
        let server = try Self.makeServer()
        #expect(throws: TransportError.packetTooLarge(claimed: 0x7fff_ffff)) {
            try server.writeInbound(ByteBuffer(bytes: [0xee, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0x7f]))
        }
    }
}
