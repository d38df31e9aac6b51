public import Foundation
public import MTProtoTransport
import NIOCore
import NIOPosix
public import TestVectors

/// A SOCKS5 server no one here wrote — Debian's `microsocks`, which `make deps` installs — running on a free port of
/// 127.0.0.1, with or without a username and password (RFC 1929): what connections through a proxy are tested
/// against. Dropping it does not stop it: call `stop()`.
public final class SOCKS5TestProxy: @unchecked Sendable {
    public let process: RunningProcess
    public let port: Int

    public init(username: String? = nil, password: String? = nil) async throws {
        var lastError = "not started"
        for _ in 0..<3 {
            let port = try await Self.freePort()
            var arguments = ["-i", "127.0.0.1", "-p", "\(port)"]
            if let username, let password { arguments += ["-u", username, "-P", password] }
            let process = try ProcessRunner.start(URL(fileURLWithPath: "/usr/bin/microsocks"), arguments)
            if await Self.accepts(port: port, within: 5) {
                self.process = process
                self.port = port
                return
            }
            process.send(SIGKILL)
            lastError = await process.waitOffPool(timeout: 5).errorOutput
        }
        throw SOCKS5TestProxyError(output: lastError)
    }

    /// The proxy for an endpoint, with `credentials` (which need not be the right ones).
    public func proxy(_ credentials: SOCKS5Proxy.Credentials? = nil) -> SOCKS5Proxy {
        SOCKS5Proxy(host: "127.0.0.1", port: port, credentials: credentials)
    }

    /// Kills the proxy and waits for it.
    public func stop() {
        process.send(SIGKILL)
        _ = process.wait(timeout: 10)
    }

    /// A port nothing listens on right now.
    public static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Whether something accepts TCP connections on `port` within `seconds` (microsocks says nothing when it
    /// is ready).
    static func accepts(port: Int, within seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
            {
                try? await channel.close()
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}

/// microsocks did not start (three free ports tried).
public struct SOCKS5TestProxyError: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "microsocks did not start: \(output) — run `make deps`" }
}
