public import NIOCore

/// A client's fake-TLS layer, nearest the socket: sends the ClientHello when the socket connects, holds every write
/// until the proxy's ServerHello has been checked against the secret, then sends writes as application-data records
/// (the first after a ChangeCipherSpec) and passes on the payloads of the records that arrive. A ServerHello that
/// is not the proxy's closes the connection with `FakeTLSClientHello.Failure`.
public final class FakeTLSClientHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private enum State {
        case idle
        case awaitingServerHello(clientDigest: [UInt8], received: [UInt8])
        case established
        case failed
    }

    private let key: [UInt8]
    private let domain: String
    private let clock: @Sendable () -> UInt32
    private var state = State.idle
    private var reader = FakeTLSRecords.Reader()
    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var flushHeld = false
    private var sentChangeCipherSpec = false

    /// The largest ServerHello answer waited for before giving up (a real server's first flight is a few KB).
    static let maximumServerHello = 32 * 1024

    /// A handler signing with the 16-byte `key` for `domain`, at the Unix time `clock` gives.
    public init(key: [UInt8], domain: String, clock: @escaping @Sendable () -> UInt32) {
        self.key = key
        self.domain = domain
        self.clock = clock
    }

    public func channelActive(context: ChannelHandlerContext) {
        var generator = SystemRandomNumberGenerator()
        let hello = FakeTLSClientHello.make(domain: domain, key: key, unixTime: clock(), using: &generator)
        let offset = FakeTLSClientHello.digestOffset
        state = .awaitingServerHello(clientDigest: Array(hello[offset..<(offset + 32)]), received: [])
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: hello)), promise: nil)
        context.fireChannelActive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        switch state {
        case .idle, .failed:
            return
        case .awaitingServerHello(let digest, var received):
            received += bytes
            do {
                guard let length = try FakeTLSClientHello.serverHelloLength(received[...]) else {
                    guard received.count <= Self.maximumServerHello else {
                        throw FakeTLSClientHello.Failure.notAServerHello
                    }
                    state = .awaitingServerHello(clientDigest: digest, received: received)
                    return
                }
                try FakeTLSClientHello.verifyServerHello(Array(received[0..<length]), clientDigest: digest, key: key)
                state = .established
                releaseHeld(context: context)
                deliver(Array(received[length...]), context: context)
            } catch {
                fail(error, context: context)
            }
        case .established:
            deliver(bytes, context: context)
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        switch state {
        case .established: send(buffer, context: context, promise: promise)
        case .failed: promise?.fail(FakeTLSClientHello.Failure.notAServerHello)
        case .idle, .awaitingServerHello: held.append((buffer, promise))
        }
    }

    public func flush(context: ChannelHandlerContext) {
        if case .established = state { context.flush() } else { flushHeld = true }
    }

    /// What was written before the handshake ended goes out now, in one burst of records.
    private func releaseHeld(context: ChannelHandlerContext) {
        let pending = held
        held = []
        for (buffer, promise) in pending { send(buffer, context: context, promise: promise) }
        if flushHeld || !pending.isEmpty {
            flushHeld = false
            context.flush()
        }
    }

    private func send(_ buffer: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        var records = sentChangeCipherSpec ? [] : FakeTLSRecords.changeCipherSpec
        sentChangeCipherSpec = true
        records += FakeTLSRecords.wrap(
            Array(buffer.readableBytesView), chunk: FakeTLSRecords.clientRecordPayload)
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: records)), promise: promise)
    }

    private func deliver(_ bytes: [UInt8], context: ChannelHandlerContext) {
        guard !bytes.isEmpty else { return }
        do {
            let payload = try reader.receive(bytes)
            guard !payload.isEmpty else { return }
            context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: payload)))
        } catch {
            fail(error, context: context)
        }
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        state = .failed
        for (_, promise) in held { promise?.fail(error) }
        held = []
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension FakeTLSClientHandler: Sendable {}
