public import NIOCore

/// What the first bytes of a connection say about its transport (MTProto transports: the server "recognizes these
/// different protocols … by the header").
public enum DetectedTransport: Equatable, Sendable {
    /// A plain framing; `preambleLength` bytes of tag to drop before the first frame.
    case plain(TransportFraming, preambleLength: Int)
    /// An obfuscated2 connection: the 64-byte header is at the front of the stream.
    case obfuscated
    /// MTProto over HTTP (core.telegram.org/mtproto/transports "HTTP"): requests start with a method name.
    case http
}

/// Classifies a connection from its first bytes, or says how many more it needs.
public enum TransportClassifier {
    /// Bytes an obfuscated2 header occupies.
    public static let obfuscatedHeaderLength = 64

    /// Decides from the bytes seen so far: `.success(nil)` to wait for more, `.failure` for a stream no transport
    /// explains. A stream that starts with an HTTP method is MTProto over HTTP (the obfuscated2 header is never made
    /// to start like one).
    public static func classify(_ bytes: ByteBufferView) -> Result<DetectedTransport?, TransportError> {
        guard let first = bytes.first else { return .success(nil) }
        if first == 0xef { return .success(.plain(.abridged, preambleLength: 1)) }
        guard bytes.count >= 4 else {
            // A prefix of 0xeeeeeeee or 0xdddddddd still needs its other bytes; anything else may be obfuscated.
            return .success(nil)
        }
        let head = Array(bytes.prefix(4))
        if head == [0xee, 0xee, 0xee, 0xee] { return .success(.plain(.intermediate, preambleLength: 4)) }
        if head == [0xdd, 0xdd, 0xdd, 0xdd] { return .success(.plain(.paddedIntermediate, preambleLength: 4)) }
        if ["GET ", "POST", "HEAD", "OPTI", "PUT "].contains(where: { Array($0.utf8) == head }) {
            return .success(.http)
        }
        guard bytes.count >= 8 else { return .success(nil) }
        // The full framing's first frame has sequence number 0 in bytes 4..<8; an obfuscated header never does.
        if bytes.dropFirst(4).prefix(4).allSatisfy({ $0 == 0 }) {
            return .success(.plain(.full, preambleLength: 0))
        }
        return .success(bytes.count >= obfuscatedHeaderLength ? .obfuscated : nil)
    }
}

/// The first inbound handler of a server connection: buffers bytes until `TransportClassifier` decides, then puts
/// the matching handlers after itself, hands them what it buffered, and leaves the pipeline. With a `timeout`, a
/// connection that has not named its transport within that time of being added (silent, or stalled inside an
/// obfuscated2 header) is closed with `TransportError.frameTimeout`.
public final class TransportDetector: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer

    /// Adds the handlers for a detected transport after the detector (framing, deobfuscation, and whatever
    /// consumes frames). Called once, on the channel's event loop.
    public typealias Installer = (DetectedTransport, ChannelHandlerContext) throws -> Void

    private var buffered: ByteBuffer?
    private let install: Installer
    private let timeout: TimeAmount?
    private var deadline: Scheduled<Void>?

    public init(timeout: TimeAmount? = nil, install: @escaping Installer) {
        self.timeout = timeout
        self.install = install
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if let timeout { deadline = TransportDeadline.close(context, after: timeout) }
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if buffered == nil {
            buffered = incoming
        } else {
            buffered!.writeBuffer(&incoming)
        }
        switch TransportClassifier.classify(buffered!.readableBytesView) {
        case .success(nil):
            return
        case .failure(let error):
            context.fireErrorCaught(error)
            context.close(promise: nil)
        case .success(let detected?):
            deadline?.cancel()
            deadline = nil
            var rest = buffered!
            buffered = nil
            if case .plain(_, let preambleLength) = detected { rest.moveReaderIndex(forwardBy: preambleLength) }
            do {
                try install(detected, context)
            } catch {
                context.fireErrorCaught(error)
                context.close(promise: nil)
                return
            }
            if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

@available(*, unavailable)
extension TransportDetector: Sendable {}
