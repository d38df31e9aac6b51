import MTProtoTransport
import NIOCore
import NIOPosix
import Testing

/// Real TCP sockets on 127.0.0.1: a `TransportServer` echoing packets, clients on every framing.
@Suite struct TransportSocketTests {
    /// Writes every packet it receives straight back, cut to the length its first word states (as the MTProto
    /// layer cuts padded-intermediate padding using the packet's own lengths).
    final class EchoHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = TransportFrame
        typealias OutboundOut = TransportFrame

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .packet(let payload, _) = unwrapInboundIn(data),
                let length = payload.getInteger(at: payload.readerIndex, endianness: .little, as: UInt32.self),
                let packet = payload.getSlice(at: payload.readerIndex, length: Int(length))
            {
                context.writeAndFlush(wrapOutboundOut(.packet(packet)), promise: nil)
            }
        }
    }

    /// Whether a future has its value, asked on its own event loop (where its callbacks run in order: one added now
    /// runs at once if the value is there).
    enum Answered {
        static func check<T>(_ future: EventLoopFuture<T>) -> Bool {
            var done = false
            future.assumeIsolated().whenComplete { _ in done = true }
            return done
        }
    }

    /// Completes its promise once `expected` frames have arrived.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = TransportFrame
        private var frames: [TransportFrame] = []
        private let expected: Int
        let promise: EventLoopPromise<[TransportFrame]>

        init(expected: Int, promise: EventLoopPromise<[TransportFrame]>) {
            self.expected = expected
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            frames.append(unwrapInboundIn(data))
            if frames.count == expected { promise.succeed(frames) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.ioOnClosedChannel)
        }
    }

    @Test(arguments: TransportFraming.allCases)
    func echoOverLoopback(_ framing: TransportFraming) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await TransportServer.start(host: "127.0.0.1", port: 0, group: group) { _ in [EchoHandler()] }
        let promise = group.next().makePromise(of: [TransportFrame].self)
        let packets = [4, 400, 4000, 40000].map { length in
            var bytes = ByteBuffer()
            bytes.writeInteger(UInt32(length), endianness: .little)
            bytes.writeBytes((4..<length).map { UInt8(truncatingIfNeeded: $0 * 7) })
            return TransportFrame.packet(bytes)
        }
        let client = try await TransportClient.connect(
            host: "127.0.0.1", port: server.port, framing: framing, group: group
        ) { channel in [Collector(expected: packets.count, promise: promise)] }
        for packet in packets { client.write(packet, promise: nil) }
        client.flush()
        var echoed = try await promise.futureResult.get()
        if framing == .paddedIntermediate { echoed = zip(echoed, packets).map(FrameCodecTests.stripPadding) }
        #expect(echoed == packets)
        try await client.close()
        try await server.close()
        try await group.shutdownGracefully()
    }

    /// A listener started with `accepting: false` (a server whose RPC handler is not ready yet) leaves a client that
    /// connects in the backlog: its connect completes and its packet waits, unanswered, until `startAccepting()`; then
    /// it is accepted and answered.
    @Test func aListenerNotAcceptingYetHoldsItsClientsUntilItStarts() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await TransportServer.start(host: "127.0.0.1", port: 0, group: group, accepting: false) { _ in
            [EchoHandler()]
        }
        let promise = group.next().makePromise(of: [TransportFrame].self)
        var bytes = ByteBuffer()
        bytes.writeInteger(UInt32(8), endianness: .little)
        bytes.writeInteger(UInt32(0x1234_5678), endianness: .little)
        let packet = TransportFrame.packet(bytes)
        let client = try await TransportClient.connect(
            host: "127.0.0.1", port: server.port, framing: .intermediate, group: group
        ) { _ in [Collector(expected: 1, promise: promise)] }
        client.writeAndFlush(packet, promise: nil)
        // Nothing is accepted, so nothing answers (a tenth of a second is ample on loopback for an echo).
        let early = group.next().scheduleTask(in: .milliseconds(100)) {}
        try await early.futureResult.get()
        let answered = promise.futureResult.eventLoop.submit { Answered.check(promise.futureResult) }
        #expect(try await answered.get() == false)
        try await server.startAccepting()
        #expect(try await promise.futureResult.get() == [packet])
        try await client.close()
        try await server.close()
        try await group.shutdownGracefully()
    }
}
