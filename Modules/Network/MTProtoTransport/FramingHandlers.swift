public import NIOCore

/// Decodes the inbound byte stream into `TransportFrame`s with one framing's codec. A `TransportError` closes the
/// connection: a stream whose framing is broken cannot be resynchronised.
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = TransportFrame
    private var codec: any FrameCodec

    public init(framing: TransportFraming, role: TransportRole) {
        codec = makeFrameCodec(framing, role: role)
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try codec.decode(&buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Encodes outbound `TransportFrame`s with one framing's codec. On a plain client connection it first writes the
/// framing's preamble (`0xef`, `0xeeeeeeee`, `0xdddddddd`); under obfuscation the header takes its place.
public final class FrameEncoder: ChannelOutboundHandler {
    public typealias OutboundIn = TransportFrame
    public typealias OutboundOut = ByteBuffer

    private var codec: any FrameCodec
    private var preamble: [UInt8]

    /// `sendsPreamble`: a plain client connection; false for servers and obfuscated clients.
    public init(framing: TransportFraming, role: TransportRole, sendsPreamble: Bool) {
        codec = makeFrameCodec(framing, role: role)
        preamble = sendsPreamble ? framing.plainPreamble : []
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        var out = context.channel.allocator.buffer(capacity: preamble.count + 16 + frame.estimatedSize)
        if !preamble.isEmpty {
            out.writeBytes(preamble)
            preamble = []
        }
        codec.encode(frame, into: &out)
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
