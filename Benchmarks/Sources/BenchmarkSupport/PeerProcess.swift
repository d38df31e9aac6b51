import Foundation

/// A peer implementation in another language, kept running between rounds: `Benchmarks/scripts/<script> --serve`
/// reads one JSON command per line on stdin and answers each with one JSON line on stdout, timing its own work. A
/// comparison then interleaves its rounds with ours (`compareInterleaved(oursTimed:peerTimed:)`) without paying the
/// interpreter's start-up in any round.
public final class PeerProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()
    private let script: String

    /// Starts `script` with the repository's venv Python and `arguments` (after `--serve`).
    public init(_ script: String, arguments: [String] = []) throws {
        self.script = script
        process.executableURL = repositoryRoot.appendingPathComponent(".venv/bin/python")
        process.arguments =
            [repositoryRoot.appendingPathComponent("Benchmarks/scripts/\(script)").path, "--serve"] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends `command` and returns the peer's answer; a peer that exits or answers with something other than a JSON
    /// object throws `ScriptFailure` with what it printed on stderr.
    public func ask(_ command: [String: Any]) throws -> [String: Any] {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(0x0A)
        try input.fileHandleForWriting.write(contentsOf: line)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let answer = buffered[buffered.startIndex..<newline]
                buffered.removeSubrange(buffered.startIndex...newline)
                guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                    throw failure(String(decoding: answer, as: UTF8.self))
                }
                return object
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw failure("") }
            buffered.append(chunk)
        }
    }

    private func failure(_ printed: String) -> ScriptFailure {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return ScriptFailure(script: script, status: process.terminationStatus, output: printed + stderr)
    }
}
