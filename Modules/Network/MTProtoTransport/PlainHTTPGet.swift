import Foundation
public import NIOCore
import NIOPosix

/// One bounded HTTP/1.1 GET over a plain socket (`Connection: close`, the answer read to its end): how a client fetches
/// a fallback configuration from an operator's host when it reaches no data center. At most `limit` bytes are read and
/// the whole exchange takes at most `timeout` seconds; chunked answers are refused (the hosts it is pointed at send a
/// length or close).
public enum PlainHTTPGet {
    /// Why a fetch failed.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case connect(String)
        case timedOut(Double)
        case tooLarge(Int)
        case malformed(String)
        case status(Int)

        public var description: String {
            switch self {
            case .connect(let detail): return "could not connect: \(detail)"
            case .timedOut(let seconds): return "no whole answer within \(seconds) s"
            case .tooLarge(let limit): return "the answer is larger than \(limit) bytes"
            case .malformed(let detail): return "not an HTTP answer: \(detail)"
            case .status(let code): return "HTTP status \(code)"
            }
        }
    }

    /// The body of `GET path` from `host:port`, sent with `headers`; fails on a status other than 200.
    public static func fetch(
        host: String, port: Int, path: String, headers: [(String, String)] = [], group: any EventLoopGroup,
        timeout: Double = 10, limit: Int = 64 << 10
    ) async throws -> [UInt8] {
        let collector = Collector(limit: limit)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.nanoseconds(Int64(timeout * 1e9)))
                .channelInitializer { $0.pipeline.addHandler(collector) }
                .connect(host: host, port: port).get()
        } catch {
            throw Failure.connect("\(error)")
        }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
            collector.fail(.timedOut(timeout))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        try await channel.writeAndFlush(ByteBuffer(string: request))
        let bytes = try await collector.done.futureResult.get()
        return try body(of: bytes)
    }

    /// The body of a whole HTTP/1.1 answer, checked.
    static func body(of answer: [UInt8]) throws(Failure) -> [UInt8] {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = answer.firstRange(of: separator) else { throw .malformed("no end of headers") }
        let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusLine = head.first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw .malformed("status line \(statusLine.prefix(40))")
        }
        guard code == 200 else { throw .status(code) }
        var length: Int?
        for line in head.dropFirst() {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2 else { continue }
            let name = field[0].lowercased(), value = field[1].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding", value.lowercased() != "identity" { throw .malformed("chunked answer") }
            if name == "content-length" { length = Int(value) }
        }
        let body = Array(answer[end.upperBound...])
        guard let length else { return body }
        guard body.count >= length else { throw .malformed("body shorter than its Content-Length") }
        return Array(body.prefix(length))
    }

    /// Collects what the server sends until it closes.
    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let limit: Int
        var bytes: [UInt8] = []
        var done: EventLoopPromise<[UInt8]>!
        private var finished = false

        init(limit: Int) { self.limit = limit }

        func handlerAdded(context: ChannelHandlerContext) {
            done = context.eventLoop.makePromise()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
            if bytes.count > limit {
                fail(.tooLarge(limit))
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            guard !finished else { return }
            finished = true
            done.succeed(bytes)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            fail(.malformed("\(error)"))
            context.close(promise: nil)
        }

        func fail(_ failure: Failure) {
            guard !finished else { return }
            finished = true
            done.fail(failure)
        }
    }
}
