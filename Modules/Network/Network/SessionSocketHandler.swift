import MTProtoTransport
import NIOCore

/// The socket end of a `DatacenterConnection`: hands frames, long-poll requests and the close to it (on the
/// channel's loop, which is the connection's).
final class SessionSocketHandler: ChannelInboundHandler {
    typealias InboundIn = TransportFrame

    private let onFrame: (TransportFrame) -> Void
    private let onClose: () -> Void
    private let onPollNeeded: () -> Void

    init(
        onFrame: @escaping (TransportFrame) -> Void, onClose: @escaping () -> Void,
        onPollNeeded: @escaping () -> Void
    ) {
        self.onFrame = onFrame
        self.onClose = onClose
        self.onPollNeeded = onPollNeeded
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is HTTPPollNeeded { onPollNeeded() } else { context.fireUserInboundEventTriggered(event) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onFrame(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
