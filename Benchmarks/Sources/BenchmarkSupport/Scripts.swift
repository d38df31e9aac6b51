import Foundation

/// The repository's root (the folder holding the Makefile), found from this file's path.
public let repositoryRoot: URL = {
    var root = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Makefile").path), root.path != "/" {
        root.deleteLastPathComponent()
    }
    return root
}()

/// Why a peer script could not give its figures.
public struct ScriptFailure: Error, CustomStringConvertible {
    public let script: String
    public let status: Int32
    public let output: String
    public var description: String {
        "\(script) exited with \(status): \(output.suffix(2000)) — run `make deps` for the venv with Telethon"
    }
}

/// Runs `Benchmarks/scripts/<script>` with the repository's venv Python and returns the JSON object it prints.
public func runBenchmarkScript(_ script: String, arguments: [String]) throws -> [String: Any] {
    let process = Process()
    process.executableURL = repositoryRoot.appendingPathComponent(".venv/bin/python")
    process.arguments = [repositoryRoot.appendingPathComponent("Benchmarks/scripts/\(script)").path] + arguments
    let pipe = Pipe()
    let errors = Pipe()
    process.standardOutput = pipe
    process.standardError = errors
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
        throw ScriptFailure(
            script: script, status: process.terminationStatus, output: String(decoding: data, as: UTF8.self) + errorText
        )
    }
    return object
}
