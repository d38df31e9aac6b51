import Foundation
import Synchronization
import TestVectors
import Testing

/// What the `tg` tests run as real processes: a `tg-server` on free loopback ports, the built `tg` over one root, and
/// Telethon 1.45 (`Tests/Fixtures/telethon/tg_cli_peer.py`) as the other person, driven through command files. Every
/// wait polls with `Task.sleep` or runs off the cooperative pool, and has a deadline. With `restartable`, tg-server
/// listens on consecutive fixed ports (`--port`), so `restartServer()` can kill it and start it again where the
/// clients expect it.
final class CommandLineHarness: Sendable {
    let folder: URL
    let root: String
    let keyFile: String
    let ports: [Int32: Int]
    /// The running tg-server (replaced by `restartServer()`).
    private let serverProcess: Mutex<RunningProcess>
    private var server: RunningProcess { serverProcess.withLock { $0 } }
    /// tg-server's arguments, `--port` included, for a restart on the same ports and data.
    private let serverCommand: [String]
    private let peerProcess: RunningProcess?
    let peerFolder: URL

    static var tg: URL { ProcessRunner.builtExecutable("tg") }
    static var tgServer: URL { ProcessRunner.builtExecutable("tg-server") }

    /// `--server` for tg: every DC's port.
    var serverArgument: String {
        "127.0.0.1:" + ports.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// Starts tg-server (with `serverArguments` added, e.g. `--push-dir`), and the Telethon peer as `peerPhone` when
    /// given.
    init(
        peerPhone: String? = nil, peerName: String = "Bob", peerUsername: String = "bob_cli",
        serverArguments: [String] = [], restartable: Bool = false
    ) async throws {
        for tool in [Self.tg, Self.tgServer] {
            try #require(
                FileManager.default.isExecutableFile(atPath: tool.path),
                "build \(tool.lastPathComponent) first (swift build --build-tests)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tg-cli-\(UUID().uuidString)")
        root = folder.appendingPathComponent("root").path
        peerFolder = folder.appendingPathComponent("telethon")
        try FileManager.default.createDirectory(at: peerFolder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("server").path
        let (server, command) = try await Self.startServer(
            data: data, arguments: serverArguments, restartable: restartable)
        serverProcess = Mutex(server)
        serverCommand = command
        let ports = Self.ports(server)
        self.ports = ports
        try #require(
            ports.count == 3, "no ports in tg-server's ready line: \(String(decoding: server.output, as: UTF8.self))")
        keyFile = folder.appendingPathComponent("server.pem").path
        let key = try await ProcessRunner.runOffPool(
            Self.tgServer, ["--print-public-key", "--data-dir", data], timeout: 30)
        try #require(key.succeeded)
        try key.stdout.write(to: URL(fileURLWithPath: keyFile))
        if let peerPhone {
            let python = ProcessRunner.venvPython
            try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
            let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/tg_cli_peer.py")
            let dc = Int32(String(Array(peerPhone)[5])) ?? 2
            peerProcess = try ProcessRunner.start(
                python,
                [
                    script.path, "--host", "127.0.0.1", "--port", String(ports[dc] ?? 0), "--pem-file", keyFile,
                    "--phone",
                    peerPhone, "--name", peerName, "--username", peerUsername, "--workdir", peerFolder.path,
                    "--timeout", "170",
                ])
            try await waitForFile(peerFolder.appendingPathComponent("ready.json"), timeout: 60)
        } else {
            peerProcess = nil
        }
    }

    /// Starts tg-server on `data`: on free ports, or (`restartable`) on three consecutive ports from a random base
    /// below Linux's ephemeral range, another base being tried when one is taken. Returns the server, ready, and the
    /// arguments it runs with.
    private static func startServer(
        data: String, arguments: [String], restartable: Bool
    ) async throws -> (RunningProcess, [String]) {
        for _ in 0..<8 {
            let port = restartable ? Int.random(in: 20_000...31_000) : 0
            let command = ["--port", String(port), "--data-dir", data] + arguments + traceArguments
            let server = try ProcessRunner.start(tgServer, command)
            if await serverReady(server) { return (server, command) }
            // On a fixed port, a server that exits at once found the port taken: another base is tried.
            guard restartable, !server.isRunning else { break }
        }
        Issue.record("tg-server did not start within 30 s")
        throw CancellationError()
    }

    /// `--trace` into a fresh folder under `TELEGRAPH_TEST_SERVER_TRACE` when that is set (kept after the test, to
    /// tell a lost request from a lost answer when a run fails); none otherwise.
    private static var traceArguments: [String] {
        guard let base = ProcessInfo.processInfo.environment["TELEGRAPH_TEST_SERVER_TRACE"], !base.isEmpty else {
            return []
        }
        return ["--trace", URL(fileURLWithPath: base).appendingPathComponent(UUID().uuidString).path]
    }

    /// Waits (at most 30 s) for tg-server's ready line.
    private static func serverReady(_ server: RunningProcess) async -> Bool {
        await server.waitForOutputOffPool(timeout: 30) { String(decoding: $0, as: UTF8.self).contains("ready") }
    }

    /// Each DC's port, from the server's ready line.
    private static func ports(_ server: RunningProcess) -> [Int32: Int] {
        var ports: [Int32: Int] = [:]
        let line =
            String(decoding: server.output, as: UTF8.self).split(separator: "\n").first { $0.contains("ready") } ?? ""
        for field in line.split(separator: " ") where field.hasPrefix("dc") {
            let parts = field.dropFirst(2).split(separator: "=")
            if parts.count == 2, let dc = Int32(parts[0]), let port = Int(parts[1]) { ports[dc] = port }
        }
        return ports
    }

    /// Kills tg-server with SIGKILL (no clean shutdown: what it held in memory — sessions, the connections to push
    /// to — is gone) and starts it again on the same data and ports; returns once it is ready again. Needs a harness
    /// made with `restartable`.
    func restartServer() async throws {
        try #require(
            serverCommand.first == "--port" && serverCommand[1] != "0", "a restart needs a restartable harness")
        server.send(SIGKILL)
        _ = await server.waitOffPool(timeout: 30)
        let restarted = try ProcessRunner.start(Self.tgServer, serverCommand)
        serverProcess.withLock { $0 = restarted }
        let ready = await Self.serverReady(restarted)
        try #require(
            ready, "tg-server did not start again within 30 s: \(String(decoding: restarted.output, as: UTF8.self))")
        try #require(Self.ports(restarted) == ports, "tg-server came back on other ports")
    }

    /// Runs `tg` with `--root` and `arguments` (at most `timeout` seconds).
    func tg(_ arguments: [String], timeout: Double = 60) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runOffPool(Self.tg, ["--root", root] + arguments, timeout: timeout)
    }

    /// Runs `tg` and decodes its `--json` output, requiring exit status 0.
    func tgJSON<T: Decodable>(_ type: T.Type, _ arguments: [String]) async throws -> T {
        let result = try await tg(arguments + ["--json"])
        try #require(
            result.status == 0, "tg \(arguments.joined(separator: " ")) exited \(result.status): \(result.errorOutput)")
        do {
            return try JSONDecoder().decode(T.self, from: result.stdout)
        } catch {
            Issue.record("tg \(arguments.joined(separator: " ")) printed what is not \(T.self): \(result.output)")
            throw error
        }
    }

    /// Runs `tgJSON` again until `done` holds for its answer (another account's `tg` process applies what the
    /// server sent in its own time), for at most 20 s; returns the last answer either way, for the caller to check.
    func tgJSON<T: Decodable>(
        _ type: T.Type, _ arguments: [String], eventually done: (T) -> Bool
    ) async throws -> T {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let value = try await tgJSON(type, arguments)
            if done(value) || Date() > deadline { return value }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Runs `tg` on a pseudo-terminal (util-linux `script`), where it draws progress bars and asks for what it lacks
    /// (`input` is what the user types); standard output and error come back together as `output`.
    func inTerminal(
        _ arguments: [String], input: String? = nil, timeout: Double = 60
    ) async throws -> ProcessRunner.Result {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(
            FileManager.default.isExecutableFile(atPath: script.path), "no util-linux script to give tg a terminal")
        let command = ([Self.tg.path, "--root", root] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        let typed = input.map { Data($0.utf8) }
        return try await offPool { try ProcessRunner.run(script, arguments, input: typed, timeout: timeout) }
    }

    /// Starts `tg` without waiting (watch).
    func startTG(_ arguments: [String]) throws -> RunningProcess {
        try ProcessRunner.start(Self.tg, ["--root", root] + arguments)
    }

    /// `tg watch` for `account`, ending by itself after `seconds`, once it says it listens (within 30 s).
    func startWatch(account: String, seconds: Int) async throws -> RunningProcess {
        let watch = try startTG(["--account", account, "watch", "--for", String(seconds)])
        let listening = await watch.waitForOutputOffPool(timeout: 30) {
            String(decoding: $0, as: UTF8.self).contains("watching")
        }
        try #require(listening, "\(account)'s watch did not start")
        return watch
    }

    private let commandCount = LockedCounter()

    /// Sends one command to the Telethon peer and decodes its answer.
    func peer<T: Decodable>(_ type: T.Type, _ command: [String: any Sendable], timeout: Double = 30) async throws -> T {
        let number = commandCount.next()
        let data = try JSONSerialization.data(withJSONObject: command)
        let temporary = peerFolder.appendingPathComponent("cmd-\(number).json.tmp")
        try data.write(to: temporary)
        try FileManager.default.moveItem(at: temporary, to: peerFolder.appendingPathComponent("cmd-\(number).json"))
        let answer = peerFolder.appendingPathComponent("out-\(number).json")
        try await waitForFile(answer, timeout: timeout)
        let bytes = try Data(contentsOf: answer)
        if let failure = try? JSONDecoder().decode(PeerFailure.self, from: bytes) {
            Issue.record("Telethon: \(command["op"] ?? "?"): \(failure.error)")
            throw CancellationError()
        }
        return try JSONDecoder().decode(T.self, from: bytes)
    }

    private func waitForFile(_ file: URL, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: file.path) {
            if let peerProcess, !peerProcess.isRunning {
                let result = await peerProcess.waitOffPool(timeout: 5)
                Issue.record("the Telethon peer ended: \(result.errorOutput)")
                throw CancellationError()
            }
            try #require(Date() < deadline, "\(file.lastPathComponent) did not appear within \(timeout) s")
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Ends the peer and the server and removes the folder.
    func close() async {
        if let peerProcess, peerProcess.isRunning {
            _ = try? await peer(Empty.self, ["op": "exit"], timeout: 10)
            _ = await peerProcess.waitOffPool(timeout: 15)
        }
        server.send(SIGTERM)
        _ = await server.waitOffPool(timeout: 30)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body` with a fresh harness and closes it whatever `body` does.
    static func with(restartable: Bool = false, _ body: (CommandLineHarness) async throws -> Void) async throws {
        let harness = try await CommandLineHarness(restartable: restartable)
        do {
            try await body(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }
}

struct Empty: Decodable {}
struct PeerFailure: Decodable { let error: String }

/// A counter shared by the test's tasks.
final class LockedCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}
