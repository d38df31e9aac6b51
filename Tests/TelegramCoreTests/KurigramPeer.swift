import Foundation
import Network
import PostboxTesting
import ServerTestSupport
import TestVectors
import Testing

/// kurigram (Tests/Fixtures/kurigram/core_peer.py) on the other side of one of our accounts, through a `.sockets`
/// world's tg-server: it prints one JSON line per step (`{"step": name, …}`), and waits for a cue file where nothing
/// else tells it our account is ready.
struct KurigramPeer {
    let process: RunningProcess
    let cues: URL

    /// Starts the script as `phone`, our account being `targetPhone`.
    init(_ world: AccountIntegrationTests.World, phone: String, targetPhone: String, wait: Double = 30) throws {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with kurigram: run `make deps`")
        let server = try world.server
        let pem = world.root.path + "/server.pem"
        try server.writePublicKeyPEM(to: pem)
        let workdir = URL(fileURLWithPath: world.root.path).appendingPathComponent("kurigram")
        cues = URL(fileURLWithPath: world.root.path).appendingPathComponent("cues")
        for folder in [workdir, cues] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let ports = server.endpoints.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.port)" }.joined(
            separator: ",")
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/kurigram/core_peer.py")
        process = try ProcessRunner.start(
            python,
            [
                script.path, "--host", "127.0.0.1", "--ports", ports, "--pem-file", pem, "--workdir", workdir.path,
                "--cues", cues.path, "--phone", phone, "--target-phone", targetPhone, "--wait", String(wait),
            ])
    }

    /// The line of `step`, decoded, once kurigram prints it (at most `timeout` seconds); fails with what kurigram
    /// printed when it stops first.
    func step<Line: Decodable>(_ step: String, as type: Line.Type, timeout: Double = 60) async throws -> Line {
        let marker = "\"step\": \"\(step)\""
        let printed = await process.waitForOutputOffPool(timeout: timeout) { $0.range(of: Data(marker.utf8)) != nil }
        let lines = String(decoding: process.output, as: UTF8.self).split(separator: "\n")
        guard printed, let line = lines.first(where: { $0.contains(marker) }) else {
            let result = await process.waitOffPool(timeout: 5)
            throw KurigramStopped(
                step: step, output: result.output, errorOutput: String(result.errorOutput.suffix(4000)))
        }
        return try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }

    /// Lets kurigram go on past its wait for the cue `name`.
    func cue(_ name: String) throws {
        try Data().write(to: cues.appendingPathComponent(name))
    }

    /// kurigram's end: its exit status and output.
    func finish() async -> ProcessRunner.Result { await process.waitOffPool(timeout: 60) }
}

/// kurigram stopped (or went quiet) before printing a step's line.
struct KurigramStopped: Error, CustomStringConvertible {
    let step: String
    let output: String
    let errorOutput: String
    var description: String { "kurigram stopped before \(step): \(output) \(errorOutput)" }
}
