public import NIOCore

/// Answers a connection the server will not serve with a transport error in the client's own framing (MTProto
/// transports: −429 for too many connections or too much load, −404 for an unknown key), then closes it. Installed
/// in place of the MTProto handler once the transport is known.
public final class TransportRefusal: ChannelInboundHandler {
    public typealias InboundIn = TransportFrame
    public typealias OutboundOut = TransportFrame

    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        // Later on the loop, not now: the detector is still installing the framing (an obfuscated connection gets
        // its codec only once its header, already buffered, has been read).
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (me, context) = bound.value
            context.writeAndFlush(me.wrapOutboundOut(.transportError(me.code))).whenComplete { _ in
                bound.value.1.close(promise: nil)
            }
        }
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

@available(*, unavailable)
extension TransportRefusal: Sendable {}
