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

    /// A server channel with the real detector (HTTP included) and small HTTP limits.
    static func makeHTTPServer() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        var limits = HTTPTransportLimits()
        limits.maximumHeaderBytes = 512
        limits.maximumBodyBytes = 1024
        try channel.pipeline.syncOperations.addHandler(TransportPipeline.serverDetector(http: limits) { [] })
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func responses(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test func httpPostsBecomePacketsAndPacketsTheirResponses() throws {
        let server = try Self.makeHTTPServer()
        var request = ByteBuffer(string: "POST /api HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8\r\n\r\n")
        request.writeBytes([1, 2, 3, 4, 5, 6, 7, 8])
        // Split in two reads: the body arrives after the headers.
        let head = request.readSlice(length: 20)!
        try server.writeInbound(head)
        try server.writeInbound(request)
        #expect(try server.readInbound(as: TransportFrame.self) == .packet(ByteBuffer(bytes: [1, 2, 3, 4, 5, 6, 7, 8])))
        try server.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [9, 9, 9, 9])))
        let answer = try Self.responses(server)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix("Content-Length: 4\r\n\r\n\u{9}\u{9}\u{9}\u{9}"))
        // A packet with no request owed waits for the next POST, which it answers at once.
        try server.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [7, 7, 7, 7])))
        #expect(try Self.responses(server).isEmpty)
        try server.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
        #expect(try Self.responses(server).hasSuffix("Content-Length: 4\r\n\r\n\u{7}\u{7}\u{7}\u{7}"))
        // Other methods and paths get their status; the connection stays.
        try server.writeInbound(ByteBuffer(string: "GET /api HTTP/1.1\r\n\r\n"))
        #expect(try Self.responses(server).hasPrefix("HTTP/1.1 405 "))
        try server.writeInbound(ByteBuffer(string: "POST /other HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
        #expect(try Self.responses(server).hasPrefix("HTTP/1.1 404 "))
        #expect(server.isActive)
        _ = try? server.finish()
    }

    @Test func heldPostsAreAnsweredEmptyWhenTheirHoldEndsAndHttpWaitShortensIt() throws {
        let server = try Self.makeHTTPServer()
        try server.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
        server.embeddedEventLoop.advanceTime(by: .seconds(24))
        #expect(try Self.responses(server).isEmpty)
        server.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(try Self.responses(server) == "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nAccess-Control-Allow-Origin: *\r\n"
            + "Content-Type: application/octet-stream\r\nContent-Length: 0\r\n\r\n")
        // The client's http_wait asks for half a second: the next poll is answered then.
        try server.pipeline.triggerUserOutboundEvent(HTTPHoldRequest(maxWait: 0.5)).wait()
        try server.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
        server.embeddedEventLoop.advanceTime(by: .milliseconds(400))
        #expect(try Self.responses(server).isEmpty)
        server.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(try Self.responses(server).hasSuffix("Content-Length: 0\r\n\r\n"))
        _ = try? server.finish()
    }

    @Test func oversizedHttpRequestsGetTheirStatusAndAClose() throws {
        let tooLong = try Self.makeHTTPServer()
        try tooLong.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"))
        #expect(try Self.responses(tooLong).hasPrefix("HTTP/1.1 413 "))
        #expect(!tooLong.isActive)
        let headers = try Self.makeHTTPServer()
        try headers.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nX: " + String(repeating: "a", count: 600)))
        #expect(try Self.responses(headers).hasPrefix("HTTP/1.1 431 "))
        #expect(!headers.isActive)
        let chunked = try Self.makeHTTPServer()
        try chunked.writeInbound(ByteBuffer(string: "POST /api HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))
        #expect(try Self.responses(chunked).hasPrefix("HTTP/1.1 501 "))
        let garbage = try Self.makeHTTPServer()
        try garbage.writeInbound(ByteBuffer(string: "POST /api HTTX\r\n\r\n"))
        #expect(try Self.responses(garbage).hasPrefix("HTTP/1.1 400 "))
    }

    @Test func hugeLengthClosesTheConnection() throws {
        let server = try Self.makeServer()
        #expect(throws: TransportError.packetTooLarge(claimed: 0x7fff_ffff)) {
            try server.writeInbound(ByteBuffer(bytes: [0xee, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0x7f]))
        }
    }
}
