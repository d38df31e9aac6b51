import Foundation

/// Tests/Fixtures/webpages/page_server.py on 127.0.0.1: the web pages (and pictures) link-preview tests allow
/// tg-server to fetch, each request counted. Started with the project's venv Python; killed by `stop()`.
public struct LoopbackPageServer: Sendable {
    /// The running server.
    public let process: RunningProcess
    /// The port it listens on (the first line it prints is `listening PORT`).
    public let port: Int

    /// Starts the server and waits (at most 30 s) for the line naming its port.
    public static func start() async throws -> LoopbackPageServer {
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/webpages/page_server.py")
        let process = try ProcessRunner.start(ProcessRunner.venvPython, [script.path])
        let ready = await process.waitForOutputOffPool(timeout: 30) { $0.contains(UInt8(ascii: "\n")) }
        let line = String(decoding: process.output, as: UTF8.self)
        guard ready, let port = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else {
            process.send(SIGKILL)
            throw NotStarted(output: line)
        }
        return LoopbackPageServer(process: process, port: port)
    }

    /// Kills the server.
    public func stop() { process.send(SIGKILL) }

    /// The server did not print its port within 30 s (or died first).
    public struct NotStarted: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "the page server did not start: \(output)" }
    }
}
