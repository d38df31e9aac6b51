import Foundation
import TestVectors

/// The programs these tests run: the built `tg-server` and the venv's Python with Telethon and kurigram (through
/// TestVectors' `ProcessRunner`, which drains their output and enforces time limits).
enum ProcessSupport {
    static var python: URL { ProcessRunner.venvPython }
    static var tgServer: URL { ProcessRunner.builtExecutable("tg-server") }
    /// The Telethon client script: auth key, help.getConfig, ping and reconnect over one transport.
    static var interopScript: URL {
        Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/mtproto_interop.py")
    }

    /// A running server and the ports its "ready" line announced. Its output is drained while it runs, so a
    /// chatty server never blocks on a full pipe; dropping it kills a server that is still running. Every wait for
    /// the child (its start, its end, `--print-public-key`) is awaited off Swift's cooperative pool (`offPool`): the
    /// live suites run together on two cooperative threads, and a test blocking one while a tg-server starts stalls
    /// every other test's tasks and the deadlines they check.
    final class Server: Sendable {
        let dataDirectory: URL
        let ports: [Int32: Int]
        /// The metrics endpoint's port, when the server was started with `--metrics-port`.
        let metricsPort: Int?
        private let child: RunningProcess

        /// Starts a server on free ports, in `dataDirectory` (kept from an earlier server) or a new folder.
        init(arguments: [String] = [], dataDirectory: URL? = nil) async throws {
            self.dataDirectory =
                dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("tg-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: self.dataDirectory, withIntermediateDirectories: true)
            child = try ProcessRunner.start(
                ProcessSupport.tgServer, ["--port", "0", "--data-dir", self.dataDirectory.path] + arguments)
            // The ready line: "tg-server: ready dc1=P dc2=P dc3=P" (and " metrics=P" with --metrics-port).
            _ = await child.waitForOutputOffPool(timeout: 30) { $0.contains(UInt8(ascii: "\n")) }
            var ports: [Int32: Int] = [:]
            for field in String(decoding: child.output, as: UTF8.self).split(separator: " ") where field.hasPrefix("dc") {
                let parts = field.dropFirst(2).split(separator: "=")
                if parts.count == 2, let dc = Int32(parts[0]),
                    let port = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    ports[dc] = port
                }
            }
            self.ports = ports
            metricsPort = String(decoding: child.output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
                .first { $0.hasPrefix("metrics=") }.flatMap { Int($0.dropFirst("metrics=".count)) }
        }

        /// Writes the server's public key (`tg-server --print-public-key`) into its data folder and returns the file.
        func publicKeyFile() async throws -> URL {
            let pem = try await ProcessRunner.runOffPool(
                ProcessSupport.tgServer, ["--print-public-key", "--data-dir", dataDirectory.path])
            let file = dataDirectory.appendingPathComponent("public.pem")
            try pem.stdout.write(to: file)
            return file
        }

        /// The arguments the server's Telethon scripts share: the host, the server's public key (written into its
        /// data folder) and a `telethon` folder there for the scripts' session files.
        func telethonArguments() async throws -> [String] {
            let pem = try await publicKeyFile()
            let workdir = dataDirectory.appendingPathComponent("telethon")
            try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
            return ["--host", "127.0.0.1", "--pem-file", pem.path, "--workdir", workdir.path]
        }

        /// Kills the server with SIGKILL (no chance to flush anything) and keeps its data folder.
        func kill() async {
            child.send(SIGKILL)
            _ = await child.waitOffPool(timeout: 30)
        }

        /// Every DC's port as `1=P,2=P,3=P`.
        var portList: String { ports.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }

        /// Stops the server with SIGTERM and returns its exit status.
        func stop() async -> Int32 {
            await finish().status
        }

        /// Stops the server with SIGTERM and returns what it printed and its exit status.
        func finish() async -> ProcessRunner.Result {
            await offPool { self.finishWaiting() }
        }

        /// For a `defer`, which cannot await: SIGTERM now; the wait for the exit, and then the folder's removal, on a
        /// thread of their own (which keeps the server until then).
        func stopLater() {
            child.send(SIGTERM)
            Thread.detachNewThread { _ = self.finishWaiting(signalled: true) }
        }

        @available(*, noasync)
        private func finishWaiting(signalled: Bool = false) -> ProcessRunner.Result {
            if !signalled { child.send(SIGTERM) }
            let result = child.wait(timeout: 30)
            try? FileManager.default.removeItem(at: dataDirectory)
            return result
        }
    }
}
