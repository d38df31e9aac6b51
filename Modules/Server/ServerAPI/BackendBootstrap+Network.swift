public import MTProtoServer
import MTProtoTransport
public import NIOCore
import Synchronization

extension BackendBootstrap {
    /// Binds an MTProtoServer as `server` says, on `group`, and serves a new run of the backend once the ports are
    /// known (`help.getConfig` lists them); the server's connections log to this bootstrap's logger. Starting again
    /// after closing it is a restart on the same storage. With `StickerSetPolicy.required`, a sticker set that cannot
    /// be stored closes the server again and is thrown.
    public func startServer(
        _ server: MTProtoServer.Configuration, group: any EventLoopGroup
    ) async throws -> MTProtoServer {
        let updates = UpdateGateway()
        let failure = FirstFailure()
        let started = try await MTProtoServer.start(
            server, group: group, logger: configuration.logger, updates: updates
        ) { [self] dataCenters in
            let (running, error) = run(
                dataCenters: dataCenters, updates: updates, webPageFetch: Self.webPageFetch(group: group))
            if let error { failure.record(error) }
            return running.handler
        }
        if let error = failure.error {
            try? await started.close()
            throw error
        }
        return started
    }

    /// Link previews' pages fetched over plain HTTP on `group` (`PlainHTTPGet`: one bounded GET, `Connection: close`,
    /// no redirects followed, chunked answers refused).
    static func webPageFetch(group: any EventLoopGroup) -> WebPagePreviews.Fetch {
        { host, port, path, timeout, limit in
            try await PlainHTTPGet.fetch(
                host: host, port: port, path: path, headers: [("User-Agent", "tg-server link preview")],
                group: group, timeout: timeout, limit: limit)
        }
    }
}

/// The first error met where it cannot be thrown (the handler factory runs inside `MTProtoServer.start`).
private final class FirstFailure: Sendable {
    private let first = Mutex<(any Error)?>(nil)

    func record(_ error: any Error) { first.withLock { if $0 == nil { $0 = error } } }
    var error: (any Error)? { first.withLock { $0 } }
}
