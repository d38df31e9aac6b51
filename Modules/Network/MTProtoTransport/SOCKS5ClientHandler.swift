public import NIOCore

/// Runs `SOCKS5Handshake` first thing on a connection to a SOCKS5 proxy, then steps aside: what the handlers after
/// it write meanwhile (an obfuscated2 header, the first frame) waits here until the tunnel is up and then goes out in
/// order; bytes that followed the proxy's reply are passed on as the tunnelled protocol's. `established` completes
/// when the tunnel is up, and fails with the handshake's `Failure` (the connection is then closed), with
/// `ChannelError.ioOnClosedChannel` when the proxy hung up, or with `.timeout` after `timeout`.
public final class SOCKS5ClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// The handshake ran past its time.
    public struct Timeout: Error, Equatable, CustomStringConvertible {
        public var description: String { "the SOCKS5 proxy did not answer in time" }
    }

    private var handshake: SOCKS5Handshake
    private let timeout: TimeAmount
    private let promise: EventLoopPromise<Void>
    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var flushHeld = false
    private var timer: Scheduled<Void>?
    private var done = false

    /// Completes when the tunnel is up.
    public var established: EventLoopFuture<Void> { promise.futureResult }

    public init(handshake: SOCKS5Handshake, eventLoop: any EventLoop, timeout: TimeAmount = .seconds(10)) {
        self.handshake = handshake
        self.timeout = timeout
        promise = eventLoop.makePromise()
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { begin(context) }
    }

    /// Leaving the pipeline before the tunnel was up (the socket never connected, or closed): the caller hears it.
    public func handlerRemoved(context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        timer?.cancel()
        for (_, promise) in held { promise?.fail(ChannelError.ioOnClosedChannel) }
        held = []
        promise.fail(ChannelError.ioOnClosedChannel)
    }

    public func channelActive(context: ChannelHandlerContext) {
        begin(context)
        context.fireChannelActive()
    }

    private func begin(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.fail(Timeout(), context: context)
        }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: handshake.start())), promise: nil)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return context.fireChannelRead(data) }
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        do {
            switch try handshake.receive(bytes) {
            case .needMore:
                break
            case .send(let reply):
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply)), promise: nil)
            case .established(let leftover):
                succeed(context: context, leftover: leftover)
            }
        } catch {
            fail(error, context: context)
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard done else { return held.append((unwrapOutboundIn(data), promise)) }
        context.write(data, promise: promise)
    }

    public func flush(context: ChannelHandlerContext) {
        guard done else {
            flushHeld = true
            return
        }
        context.flush()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if !done { fail(ChannelError.ioOnClosedChannel, context: context, close: false) }
        context.fireChannelInactive()
    }

    private func succeed(context: ChannelHandlerContext, leftover: [UInt8]) {
        done = true
        timer?.cancel()
        for (buffer, promise) in held { context.write(wrapOutboundOut(buffer), promise: promise) }
        held = []
        if flushHeld { context.flush() }
        promise.succeed(())
        if !leftover.isEmpty {
            context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: leftover)))
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext, close: Bool = true) {
        guard !done else { return }
        done = true
        timer?.cancel()
        for (_, promise) in held { promise?.fail(error) }
        held = []
        promise.fail(error)
        context.fireErrorCaught(error)
        if close { context.close(promise: nil) }
    }
}
