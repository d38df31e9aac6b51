import Foundation

/// A peer kept running between rounds in its own process: `Benchmarks/scripts/<script> --serve` (a peer in another
/// language) or a peer executable built beside the benchmark (one that must not share its binary, such as GRDB on the
/// system SQLite) reads one JSON command per line on stdin and answers each with one JSON line on stdout, timing its
/// own work. A comparison then interleaves its rounds with ours (`compareInterleaved(oursTimed:peerTimed:)`) without
/// paying the process's or the interpreter's start-up in any round.
public final class PeerProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()
    private let script: String

    /// Starts `script` with the repository's venv Python and `arguments` (after `--serve`).
    public convenience init(_ script: String, arguments: [String] = []) throws {
        try self.init(
            name: script, executable: repositoryRoot.appendingPathComponent(".venv/bin/python"),
            arguments: [repositoryRoot.appendingPathComponent("Benchmarks/scripts/\(script)").path, "--serve"]
                + arguments)
    }

    /// Starts the executable `name` built beside this benchmark's binary with `--serve` and `arguments`; `nil` when
    /// it is not built.
    public convenience init?(sibling name: String, arguments: [String] = []) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
        try self.init(name: name, executable: binary, arguments: ["--serve"] + arguments)
    }

    private init(name: String, executable: URL, arguments: [String]) throws {
        script = name
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Sends `command` to a peer that answers `{"seconds": …, "output": "…"}`: the seconds its own timer measured
    /// and a text describing what it produced, compared with ours by `compareInterleaved`.
    public func timed(_ command: [String: Any]) throws -> TimedRun<String> {
        let answer = try ask(command)
        guard let seconds = answer["seconds"] as? Double, let output = answer["output"] as? String else {
            throw failure("answer without seconds and output: \(answer)")
        }
        return TimedRun(seconds: seconds, output: output)
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
