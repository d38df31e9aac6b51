public import NIOCore

/// A client's obfuscation layer: sends the header when the socket connects (or before the first bytes), then AES-256-CTR-encrypts everything
/// outbound and decrypts everything inbound.
public final class ObfuscationHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private var ciphers: ObfuscationCiphers
    private var headerToSend: [UInt8]?

    init(ciphers: ObfuscationCiphers, headerToSend: [UInt8]?) {
        self.ciphers = ciphers
        self.headerToSend = headerToSend
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        buffer.withUnsafeMutableReadableBytes { ciphers.receive.apply($0) }
        context.fireChannelRead(wrapInboundOut(buffer))
    }

    /// The header goes as soon as the socket connects (see `FrameEncoder.channelActive`).
    public func channelActive(context: ChannelHandlerContext) {
        if let header = headerToSend {
            headerToSend = nil
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: header)), promise: nil)
        }
        context.fireChannelActive()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        buffer.withUnsafeMutableReadableBytes { ciphers.send.apply($0) }
        if let header = headerToSend {
            headerToSend = nil
            var out = context.channel.allocator.buffer(capacity: header.count + buffer.readableBytes)
            out.writeBytes(header)
            out.writeBuffer(&buffer)
            buffer = out
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }
}

@available(*, unavailable)
extension ObfuscationHandler: Sendable {}

/// A server's obfuscation layer: reads the 64-byte header, finds the framing it names (closing the connection when
/// no secret explains it), puts that framing's codec after itself, then decrypts inbound and encrypts outbound.
public final class ServerObfuscationHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let secrets: [[UInt8]]
    private let frameTimeout: TimeAmount?
    private var ciphers: ObfuscationCiphers?
    private var pending = ByteBuffer()

    /// The DC id the client's header named (offset 60), once the header is read.
    public private(set) var dcId: Int16?

    init(secrets: [[UInt8]], frameTimeout: TimeAmount? = nil) {
        self.secrets = secrets
        self.frameTimeout = frameTimeout
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if ciphers == nil {
            pending.writeBuffer(&buffer)
            guard pending.readableBytes >= TransportClassifier.obfuscatedHeaderLength else { return }
            let header = pending.readBytes(length: TransportClassifier.obfuscatedHeaderLength)!
            guard let accepted = ObfuscatedHeader.acceptServerHeader(header, secrets: secrets) else {
                context.fireErrorCaught(TransportError.invalidObfuscatedHeader)
                context.close(promise: nil)
                return
            }
            ciphers = accepted.ciphers
            dcId = accepted.dcId
            do {
                try context.pipeline.syncOperations.addHandlers(
                    [
                        ByteToMessageHandler(
                            FrameDecoder(framing: accepted.framing, role: .server, frameTimeout: frameTimeout)),
                        FrameEncoder(framing: accepted.framing, role: .server, sendsPreamble: false),
                    ],
                    position: .after(self))
            } catch {
                context.fireErrorCaught(error)
                context.close(promise: nil)
                return
            }
            buffer = pending
            pending = ByteBuffer()
            guard buffer.readableBytes > 0 else { return }
        }
        buffer.withUnsafeMutableReadableBytes { ciphers!.receive.apply($0) }
        context.fireChannelRead(wrapInboundOut(buffer))
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        guard ciphers != nil else {
            promise?.fail(TransportError.invalidObfuscatedHeader)
            return
        }
        buffer.withUnsafeMutableReadableBytes { ciphers!.send.apply($0) }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }
}

@available(*, unavailable)
extension ServerObfuscationHandler: Sendable {}
