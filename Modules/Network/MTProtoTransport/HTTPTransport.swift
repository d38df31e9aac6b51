public import NIOCore

/// The bounds of MTProto over HTTP on the server (core.telegram.org/mtproto/transports "HTTP"): each POST to `/api`
/// carries one MTProto packet and each response one packet; a POST the server has nothing for yet is held (a long
/// poll) until a packet comes or `holdTimeout` passes.
public struct HTTPTransportLimits: Sendable, Equatable {
    /// Bytes of the request line and headers together; more gets 431.
    public var maximumHeaderBytes = 8 * 1024
    /// Bytes of one request body; more gets 413 (a packet is at most `TransportLimits.maximumPacketLength`).
    public var maximumBodyBytes = TransportLimits.maximumPacketLength
    /// Seconds a POST may be held waiting for something to answer with; then it is answered empty.
    public var holdTimeout: Double = 25
    /// POSTs held at once on one connection; past this the oldest is answered empty.
    public var maximumHeldRequests = 16
    /// Packets waiting for a POST to carry them; past this the oldest is dropped (the client catches up by msg_id
    /// resends and getDifference).
    public var maximumQueuedPackets = 64

    public init() {}
}

/// Sent down the pipeline (an outbound user event) when a client's `http_wait` asks for another hold time: the
/// connection's held requests wait at most `maxWait` seconds from now on (never longer than the server's cap).
public struct HTTPHoldRequest: Sendable, Equatable {
    public let maxWait: Double

    public init(maxWait: Double) {
        self.maxWait = maxWait
    }
}

/// One HTTP request as the server reads it, or why it could not be read.
enum HTTPInbound {
    case request(method: String, path: String, body: ByteBuffer)
    /// Answer with this status and close (the stream cannot be read further).
    case malformed(status: Int, reason: String)
}

/// Reads HTTP/1.1 requests (request line, headers, a `Content-Length` body) within `HTTPTransportLimits`; chunked
/// bodies and anything unparsable become `.malformed` with the status to answer.
struct HTTPRequestDecoder: ByteToMessageDecoder {
    typealias InboundOut = HTTPInbound
    let limits: HTTPTransportLimits
    private var failed = false

    init(limits: HTTPTransportLimits) {
        self.limits = limits
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard !failed else {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let view = buffer.readableBytesView
        guard let end = Self.headerEnd(view) else {
            if view.count > limits.maximumHeaderBytes {
                return fail(context, &buffer, 431, "request headers too large")
            }
            return .needMoreData
        }
        let headerLength = end - view.startIndex
        guard headerLength <= limits.maximumHeaderBytes else {
            return fail(context, &buffer, 431, "request headers too large")
        }
        let headerText = String(decoding: view[view.startIndex..<end], as: UTF8.self)
        let lines = headerText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            return fail(context, &buffer, 400, "malformed request line")
        }
        var contentLength = 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = Self.trimmed(line[..<colon]).lowercased()
            let value = Self.trimmed(line[line.index(after: colon)...])
            if name == "content-length" {
                guard let length = Int(value), length >= 0 else {
                    return fail(context, &buffer, 400, "bad Content-Length")
                }
                contentLength = length
            } else if name == "transfer-encoding", value.lowercased() != "identity" {
                return fail(context, &buffer, 501, "Transfer-Encoding \(value) is not supported")
            }
        }
        guard contentLength <= limits.maximumBodyBytes else {
            return fail(context, &buffer, 413, "request body too large")
        }
        let total = headerLength + 4 + contentLength
        guard buffer.readableBytes >= total else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: headerLength + 4)
        let body = buffer.readSlice(length: contentLength) ?? ByteBuffer()
        context.fireChannelRead(
            wrapInboundOut(.request(method: String(requestLine[0]), path: String(requestLine[1]), body: body)))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        .needMoreData
    }

    private mutating func fail(
        _ context: ChannelHandlerContext, _ buffer: inout ByteBuffer, _ status: Int, _ reason: String
    ) -> DecodingState {
        failed = true
        buffer.moveReaderIndex(to: buffer.writerIndex)
        context.fireChannelRead(wrapInboundOut(.malformed(status: status, reason: reason)))
        return .needMoreData
    }

    static func trimmed(_ text: Substring) -> String {
        String(
            text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }

    /// The index of the blank line ending the headers ("\r\n\r\n"), if it has arrived.
    static func headerEnd(_ view: ByteBufferView) -> ByteBufferView.Index? {
        var index = view.startIndex
        while index + 3 < view.endIndex {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }
}

/// Turns HTTP requests into `TransportFrame`s for the MTProto handler after it and its frames into HTTP responses:
/// each POST `/api` body is one packet in; each packet out answers the oldest request still owed one (HTTP/1.1
/// answers in order), or waits for the next request; a request held past `holdTimeout` is answered empty. Other
/// paths get 404, other methods 405, unreadable requests their status and a close.
final class HTTPServerFrameAdapter: ChannelDuplexHandler {
    typealias InboundIn = HTTPInbound
    typealias InboundOut = TransportFrame
    typealias OutboundIn = TransportFrame
    typealias OutboundOut = ByteBuffer

    private let limits: HTTPTransportLimits
    /// How long a request is held now: `limits.holdTimeout`, or less if the client's `http_wait` asked.
    private var holdTimeout: Double
    /// Requests owed an answer, oldest first, each with its hold timer.
    private var owed: [Scheduled<Void>?] = []
    private var queued: [ByteBuffer] = []

    init(limits: HTTPTransportLimits) {
        self.limits = limits
        self.holdTimeout = limits.holdTimeout
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let hold = event as? HTTPHoldRequest else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        holdTimeout = min(max(0, hold.maxWait), limits.holdTimeout)
        // The request that carried the http_wait is already held: its timer follows the new time.
        if !owed.isEmpty {
            owed[owed.count - 1]?.cancel()
            owed[owed.count - 1] = timer(context)
        }
        promise?.succeed(())
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .malformed(let status, let reason):
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(Self.response(status: status, body: ByteBuffer(string: reason))))
                .whenComplete { _ in bound.value.close(promise: nil) }
        case .request(let method, let path, let body):
            guard method == "POST" else {
                answerNow(context, status: 405, body: "only POST /api")
                return
            }
            guard path == "/api" else {
                answerNow(context, status: 404, body: "not found")
                return
            }
            hold(context)
            // An empty POST is a poll: it only waits for what the server has to send.
            if body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.packet(body))) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .packet(let bytes, _):
            send(context, bytes, promise: promise)
        case .transportError(let code):
            var bytes = ByteBuffer()
            bytes.writeInteger(code, endianness: .little)
            send(context, bytes, promise: promise)
        case .quickAck:
            promise?.succeed(())
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        for timer in owed { timer?.cancel() }
        owed = []
    }

    /// A packet answers the oldest owed request, or waits for the next one.
    private func send(_ context: ChannelHandlerContext, _ bytes: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard !owed.isEmpty else {
            queued.append(bytes)
            if queued.count > limits.maximumQueuedPackets { queued.removeFirst() }
            promise?.succeed(())
            return
        }
        owed.removeFirst()?.cancel()
        context.write(wrapOutboundOut(Self.response(status: 200, body: bytes)), promise: promise)
    }

    /// A new request is owed an answer: a queued packet answers it at once (what the request itself produces then
    /// waits for the next request, which the client sends with its acknowledgements), else it is held.
    private func hold(_ context: ChannelHandlerContext) {
        if !queued.isEmpty {
            context.writeAndFlush(wrapOutboundOut(Self.response(status: 200, body: queued.removeFirst())), promise: nil)
            return
        }
        owed.append(timer(context))
        if owed.count > limits.maximumHeldRequests { answerOldestEmpty(context) }
    }

    private func timer(_ context: ChannelHandlerContext) -> Scheduled<Void> {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: .nanoseconds(Int64(holdTimeout * 1e9))) {
            let (me, context) = bound.value
            me.answerOldestEmpty(context)
        }
    }

    private func answerOldestEmpty(_ context: ChannelHandlerContext) {
        guard !owed.isEmpty else { return }
        owed.removeFirst()?.cancel()
        context.writeAndFlush(wrapOutboundOut(Self.response(status: 200, body: ByteBuffer())), promise: nil)
    }

    private func answerNow(_ context: ChannelHandlerContext, status: Int, body: String) {
        context.writeAndFlush(
            wrapOutboundOut(Self.response(status: status, body: ByteBuffer(string: body))), promise: nil)
    }

    /// An HTTP/1.1 response; `Content-Length` is the last header (Telethon's reader takes the body right after it).
    static func response(status: Int, body: ByteBuffer) -> ByteBuffer {
        let reason =
            [
                200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
                431: "Request Header Fields Too Large", 501: "Not Implemented",
            ][status] ?? "Error"
        var out = ByteBuffer()
        out.writeString(
            "HTTP/1.1 \(status) \(reason)\r\nConnection: keep-alive\r\nAccess-Control-Allow-Origin: *\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: \(body.readableBytes)\r\n\r\n")
        var body = body
        out.writeBuffer(&body)
        return out
    }
}

@available(*, unavailable)
extension HTTPServerFrameAdapter: Sendable {}

/// Fired up the pipeline by an `HTTPClientFrameAdapter` made with `sessionPolls` when no POST is outstanding: the
/// session after it should send a packet (an `http_wait` long poll, core.telegram.org/mtproto/service_messages).
public struct HTTPPollNeeded: Sendable, Equatable {
    public init() {}
}

/// The client end of MTProto over HTTP: each packet goes out as a `POST /api` on the kept-alive connection; each
/// response with a body comes in as a packet (a 4-byte body is a transport error code, as on TCP), an empty one (a
/// poll the server answered with nothing) is dropped. From the moment the socket connects, whenever no POST is
/// outstanding there must be one — a long poll the server holds until it has something to send — so answers
/// computed later and pushes always have a request to ride on: by default the adapter sends an empty POST; with
/// `sessionPolls` it fires `HTTPPollNeeded` and the session sends an encrypted `http_wait` (as Telegram-iOS
/// MtProtoKit's `MTHttpTransport` does), which also tells the server how long to hold it. Responses are read within
/// `maximumBodyBytes`; anything else closes the connection.
public final class HTTPClientFrameAdapter: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = TransportFrame
    public typealias OutboundIn = TransportFrame
    public typealias OutboundOut = ByteBuffer

    private let host: String
    private let maximumBodyBytes: Int
    private var pending = ByteBuffer()
    /// POSTs sent and not answered yet.
    private var outstanding = 0
    private let sessionPolls: Bool

    public init(
        host: String, port: Int, maximumBodyBytes: Int = TransportLimits.maximumPacketLength, sessionPolls: Bool = false
    ) {
        self.host = "\(host):\(port)"
        self.maximumBodyBytes = maximumBodyBytes
        self.sessionPolls = sessionPolls
    }

    /// The first POST goes as soon as the socket is up, from the event loop: it names the transport to the server
    /// (which closes a connection that has not within its frame timeout) even when the code that sends the first
    /// packet has not run yet, and it is the long poll the server answers on.
    public func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if outstanding == 0 { pollNeeded(context) }
    }

    /// No POST is outstanding: send the long poll, or ask the session to.
    private func pollNeeded(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if sessionPolls {
            context.fireUserInboundEventTriggered(HTTPPollNeeded())
        } else {
            post(ByteBuffer(), context: context, promise: nil)
        }
        context.flush()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .packet(let body, _) = unwrapOutboundIn(data) else {
            promise?.succeed(())
            return
        }
        post(body, context: context, promise: promise)
    }

    private func post(_ body: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        var body = body
        var request = ByteBuffer()
        request.writeString(
            "POST /api HTTP/1.1\r\nHost: \(host)\r\nConnection: keep-alive\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: \(body.readableBytes)\r\n\r\n")
        request.writeBuffer(&body)
        outstanding += 1
        context.write(wrapOutboundOut(request), promise: promise)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        pending.writeBuffer(&incoming)
        while true {
            let view = pending.readableBytesView
            guard let end = HTTPRequestDecoder.headerEnd(view) else {
                if view.count > 16 * 1024 { context.close(promise: nil) }
                return
            }
            let head = String(decoding: view[view.startIndex..<end], as: UTF8.self)
            var length = 0
            for line in head.split(separator: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-length:") {
                    length = Int(HTTPRequestDecoder.trimmed(lower.dropFirst(15))) ?? -1
                }
            }
            guard head.hasPrefix("HTTP/1.1 200"), length >= 0, length <= maximumBodyBytes else {
                context.fireErrorCaught(TransportError.unknownTransport(firstBytes: Array(head.utf8.prefix(12))))
                context.close(promise: nil)
                return
            }
            let headerLength = end - view.startIndex + 4
            guard pending.readableBytes >= headerLength + length else { return }
            pending.moveReaderIndex(forwardBy: headerLength)
            guard let body = pending.readSlice(length: length) else { return }
            pending.discardReadBytes()
            outstanding = max(0, outstanding - 1)
            if outstanding == 0 { pollNeeded(context) }
            if length == 4, let code = body.getInteger(at: body.readerIndex, endianness: .little, as: Int32.self),
                code < 0
            {
                context.fireChannelRead(wrapInboundOut(.transportError(code)))
            } else if length > 0 {
                context.fireChannelRead(wrapInboundOut(.packet(body)))
            }
        }
    }
}

@available(*, unavailable)
extension HTTPClientFrameAdapter: Sendable {}
