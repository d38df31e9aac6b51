import MTProtoTransport
import NIOCore
import NIOEmbedded

extension FuzzHarness {
    /// Bytes on a new server connection, through the server's transport detector with small HTTP limits (so the
    /// 413/431 paths are reachable): the first byte is the read size, the rest the stream. Every frame that comes out
    /// is answered with a packet, so responses are written too. Accepted when a request became a packet.
    public static let httpTransport = FuzzHarness(
        name: "http-transport",
        summary: "connection bytes → transport detection → HTTP requests → packets and responses"
    ) { input in
        guard let first = input.first else { return .rejected }
        let chunk = max(1, Int(first))
        var limits = HTTPTransportLimits()
        limits.maximumHeaderBytes = 256
        limits.maximumBodyBytes = 512
        limits.maximumHeldRequests = 4
        limits.maximumQueuedPackets = 4
        let channel = EmbeddedChannel()
        guard
            (try? channel.pipeline.syncOperations.addHandler(TransportPipeline.serverDetector(http: limits) { [] }))
                != nil,
            (try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()) != nil
        else { return .rejected }
        var packets = 0
        var index = 1
        while index < input.count, channel.isActive {
            var buffer = ByteBuffer()
            buffer.writeBytes(input[index..<min(input.count, index + chunk)])
            index += chunk
            guard (try? channel.writeInbound(buffer)) != nil else { break }
            while let frame = try? channel.readInbound(as: TransportFrame.self) {
                if case .packet = frame { packets += 1 }
                _ = try? channel.writeOutbound(TransportFrame.packet(ByteBuffer(bytes: [1, 2, 3, 4])))
            }
            while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
        }
        // A connection the server already closed must still be finished: `finish()` alone throws `alreadyClosed`
        // before it runs the event loop, so the pipeline's teardown never ran and the channel leaked (a leak
        // `make fuzz-all` found, Fuzz/regressions/http-transport/).
        _ = try? channel.finish(acceptAlreadyClosed: true)
        return packets > 0 ? .accepted : .rejected
    }
}
