public import NIOCore

/// Decodes the inbound byte stream into `TransportFrame`s with one framing's codec. A `TransportError` closes the
/// connection: a stream whose framing is broken cannot be resynchronised.
///
/// With a `frameTimeout`, a frame must arrive whole within that time of its first byte: a peer that sends part of
/// a frame and stalls (or trickles it) is closed with `TransportError.frameTimeout`, instead of holding its buffer
/// and its connection for as long as it likes. The clock starts again with each whole frame.
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = TransportFrame
    private var codec: any FrameCodec
    private let frameTimeout: TimeAmount?
    private var deadline: Scheduled<Void>?

    public init(framing: TransportFraming, role: TransportRole, frameTimeout: TimeAmount? = nil) {
        codec = makeFrameCodec(framing, role: role)
        self.frameTimeout = frameTimeout
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try codec.decode(&buffer) else {
            if buffer.readableBytes == 0 {
                cancelDeadline()
            } else if deadline == nil, let frameTimeout {
                deadline = TransportDeadline.close(context, after: frameTimeout)
            }
            return .needMoreData
        }
        cancelDeadline()
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        cancelDeadline()
        return .needMoreData
    }

    public mutating func decoderRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    private mutating func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}

/// Closes a connection that misses a deadline, saying why.
enum TransportDeadline {
    /// Schedules `context`'s channel to be closed with `TransportError.frameTimeout` after `timeout`.
    static func close(_ context: ChannelHandlerContext, after timeout: TimeAmount) -> Scheduled<Void> {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: timeout) {
            let seconds = Double(timeout.nanoseconds) / 1e9
            bound.value.fireErrorCaught(TransportError.frameTimeout(seconds: seconds))
            bound.value.close(promise: nil)
        }
    }
}

/// Encodes outbound `TransportFrame`s with one framing's codec. On a plain client connection it first writes the
/// framing's preamble (`0xef`, `0xeeeeeeee`, `0xdddddddd`) — when the socket connects, or before the first frame if
/// it was added to an active channel; under obfuscation the header takes its place. Inbound frames pass through. A frame the
/// codec refuses (too long to send) fails its write promise with the `TransportError`; nothing is written.
public final class FrameEncoder: ChannelDuplexHandler {
    public typealias InboundIn = TransportFrame
    public typealias InboundOut = TransportFrame
    public typealias OutboundIn = TransportFrame
    public typealias OutboundOut = ByteBuffer

    private var codec: any FrameCodec
    private var preamble: [UInt8]

    /// `sendsPreamble`: a plain client connection; false for servers and obfuscated clients.
    public init(framing: TransportFraming, role: TransportRole, sendsPreamble: Bool) {
        codec = makeFrameCodec(framing, role: role)
        preamble = sendsPreamble ? framing.plainPreamble : []
    }

    /// The preamble goes as soon as the socket connects, from the event loop: it names the transport to the server
    /// (which closes a connection that has not within its frame timeout) even when the code that sends the first
    /// frame has not run yet.
    public func channelActive(context: ChannelHandlerContext) {
        if !preamble.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: preamble)), promise: nil)
            preamble = []
        }
        context.fireChannelActive()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        var out = context.channel.allocator.buffer(capacity: preamble.count + 16 + frame.estimatedSize)
        if !preamble.isEmpty { out.writeBytes(preamble) }
        do {
            try codec.encode(frame, into: &out)
        } catch {
            promise?.fail(error)
            return
        }
        preamble = []
        context.write(wrapOutboundOut(out), promise: promise)
    }
}

// The encoder is confined to its channel's event loop, like every NIO handler.
@available(*, unavailable)
extension FrameEncoder: Sendable {}

extension TransportFrame {
    var estimatedSize: Int {
        if case .packet(let payload, _) = self { return payload.readableBytes }
        return 4
    }
}
