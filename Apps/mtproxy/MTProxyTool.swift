import ArgumentParser
import CommandLineOutput
import Foundation
import MTProtoTransport
import MTProxyRelay
import NIOCore
import NIOPosix

/// `mtproxy`: an MTProxy in front of tg-server's data centers (or any MTProto DCs), for clients that reach their
/// server only through one.
@main
struct MTProxyTool: AsyncParsableCommand {
    static func main() async { await runAsTool() }

    static let configuration = CommandConfiguration(
        commandName: "mtproxy",
        abstract: "An MTProxy: relays MTProto clients with a secret (plain, dd or ee fake-TLS) to data centers.",
        discussion: """
            Each --secret is 16 bytes in hex (32 digits; a dd or ee prefix and an ee secret's domain are accepted \
            and ignored: every key takes plain, dd and ee clients alike). Clients name the DC in their obfuscated \
            header; --dc says where each one is. A connection that is not a client of this proxy — a wrong secret, \
            a replay, a browser — is handed unchanged to --front when given (use the fake-TLS domain's own site, \
            so the port looks like it), and otherwise gets no answer until --handshake-timeout. On start it prints \
            `mtproxy: ready PORT` and a tg://proxy link per secret (with --link-host). Stop with SIGINT or SIGTERM.

            \(ToolExitCode.helpText)
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port = 443
    @Option(help: "A secret: 32 hex digits (dd… and ee…DOMAIN forms are read for their key); repeatable.")
    var secret: [String]
    @Option(help: "Where DC N is: N=HOST:PORT; repeatable (e.g. 2=127.0.0.1:10444).") var dc: [String]
    @Option(help: "HOST:PORT that connections which are not clients are handed to (default: none, no answer).")
    var front: String?
    @Option(help: "The fake-TLS domain the printed ee links name.") var domain = "example.com"
    @Option(help: "The host the printed links name (default: --host).") var linkHost: String?
    @Flag(help: "Take only dd and ee clients (padded intermediate), not plain obfuscated2.") var paddedOnly = false
    @Option(help: "Client connections open at once; more are closed as they come.") var maxConnections = 4_096
    @Option(help: "Seconds a client has to open its relay.") var handshakeTimeout = 10
    @Option(help: "Seconds a connection may stay silent before it is closed.") var idleTimeout = 600

    func run() async throws {
        var keys: [[UInt8]] = []
        for text in secret {
            do { keys.append(try MTProxySecret(parsing: text).key) } catch {
                throw ToolError.badInput("--secret: \(error.description)")
            }
        }
        var datacenters: [Int16: MTProxyConfiguration.Address] = [:]
        for item in dc {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let id = Int16(parts[0]), id > 0,
                let address = MTProxyConfiguration.Address(parsing: String(parts[1]))
            else { throw ToolError.badInput("--dc '\(item)' is not N=HOST:PORT") }
            datacenters[id] = address
        }
        guard !datacenters.isEmpty else { throw ToolError.badInput("no --dc: say where the data centers are") }
        var configuration = MTProxyConfiguration(keys: keys, datacenters: datacenters)
        if let front {
            guard let address = MTProxyConfiguration.Address(parsing: front) else {
                throw ToolError.badInput("--front '\(front)' is not HOST:PORT")
            }
            configuration.front = address
        }
        configuration.paddedOnly = paddedOnly
        configuration.maximumConnections = maxConnections
        configuration.handshakeTimeout = .seconds(Int64(handshakeTimeout))
        configuration.idleTimeout = .seconds(Int64(idleTimeout))

        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let server: MTProxyRelayServer
        do {
            server = try await MTProxyRelayServer.start(
                host: host, port: port, configuration: configuration, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw ToolError("cannot listen on \(host):\(port): \(error)")
        }
        // Written unbuffered: a script waiting for the ready line gets it at once.
        var lines = ["mtproxy: ready \(server.port)"]
        for key in keys {
            for secret in [
                try MTProxySecret(kind: .padded, key: key), try MTProxySecret(kind: .fakeTLS, key: key, domain: domain),
            ] {
                lines.append("tg://proxy?server=\(linkHost ?? host)&port=\(server.port)&secret=\(secret.hexEncoded)")
            }
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        await Self.waitForTermination()
        try? await server.close()
        try? await group.shutdownGracefully()
    }

    /// Returns on SIGINT or SIGTERM.
    static func waitForTermination() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        sources.forEach { $0.cancel() }
    }
}
