import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import NIOCore
import NIOPosix
import Prometheus

/// `--log-format`: how log lines look on standard error.
enum LogFormat: String, CaseIterable, ExpressibleByArgument {
    /// swift-log's own stream handler: `<time> <level> <label>: [<metadata>] <message>`.
    case text
    /// One JSON object a line: `time`, `level`, `label`, `message`, `metadata`.
    case json
}

/// A log handler writing one JSON object a line to standard error: `{"time":"…Z","level":"info","label":"tg-server",
/// "message":"…","metadata":{…}}` (metadata values as strings, lists and objects; no key ever goes to a log: the
/// server logs auth_key_ids, never keys).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let object: [String: Any] = [
            "time": Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
            "metadata": merged.mapValues(Self.json),
        ]
        guard
            var data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        data.append(UInt8(ascii: "\n"))
        Self.output.lock()
        FileHandle.standardError.write(data)
        Self.output.unlock()
    }

    /// Lines from every thread go out whole, one at a time.
    private static let output = NSLock()

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let value): return value.description
        case .array(let items): return items.map(json)
        case .dictionary(let fields): return fields.mapValues(json)
        }
    }
}

/// `--metrics-port`: Prometheus's text format (`GET /metrics`) from the registry tg-server bootstrapped
/// swift-metrics with. A minimal HTTP/1.1 server on SwiftNIO: one request a connection, answered and closed; a
/// request that is not whole within 10 s or larger than 8 KiB is closed unanswered.
enum MetricsEndpoint {
    /// The Prometheus factory tg-server bootstraps swift-metrics with: the server's libraries record through the
    /// swift-metrics API only; this is its one backend.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        factory.valueHistogramBuckets["tg_server_store_commit_writes"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// Listens on `host`:`port` (0: a free port); returns the channel (its local address has the port).
    static func start(
        host: String, port: Int, registry: PrometheusCollectorRegistry, group: any EventLoopGroup
    )
        async throws -> any Channel
    {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry))
                }
            }
            .bind(host: host, port: port).get()
    }
}

/// Answers one HTTP request: `GET /metrics` with the registry's text, anything else 404 or 405.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let maximumRequest = 8192
    private let registry: PrometheusCollectorRegistry
    private var request: [UInt8] = []
    private var answered = false
    private var timeout: Scheduled<Void>?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelActive(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timeout = context.eventLoop.scheduleTask(in: .seconds(10)) { bound.value.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        let buffer = unwrapInboundIn(data)
        request += buffer.readableBytesView
        guard request.count <= Self.maximumRequest else { return context.close(promise: nil) }
        let text = String(decoding: request, as: UTF8.self)
        guard text.contains("\r\n\r\n") || text.contains("\n\n") else { return }
        answered = true
        let parts = text.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
        let method = parts.first.map(String.init) ?? ""
        let path = parts.count > 1 ? String(parts[1].prefix { $0 != "?" }) : ""
        let (status, type, body): (String, String, [UInt8])
        if path != "/metrics" {
            (status, type, body) = ("404 Not Found", "text/plain", Array("not found: try /metrics\n".utf8))
        } else if method != "GET" && method != "HEAD" {
            (status, type, body) = ("405 Method Not Allowed", "text/plain", Array("GET /metrics\n".utf8))
        } else {
            (status, type, body) = ("200 OK", "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer())
        }
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var out = context.channel.allocator.buffer(capacity: head.utf8.count + body.count)
        out.writeString(head)
        if method != "HEAD" { out.writeBytes(body) }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
