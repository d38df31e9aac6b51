import Foundation

/// Runs programs for the tests: the built `tg-server` and the venv's Python with Telethon.
enum ProcessSupport {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder the test bundle was built into, where SwiftPM also puts the executables.
    static var binDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var python: URL { repositoryRoot.appendingPathComponent(".venv/bin/python") }

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable` to completion (killing it after `timeout` seconds).
    static func run(_ executable: URL, _ arguments: [String], timeout: Double = 120) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        let errData = ReadAll(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.wait(), as: UTF8.self))
    }

    /// A running server process and the ports its "ready" line announced.
    final class Server {
        let process = Process()
        let dataDirectory: URL
        private(set) var ports: [Int32: Int] = [:]
        private let output = Pipe()

        init(arguments: [String] = []) throws {
            dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tg-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            process.executableURL = ProcessSupport.binDirectory.appendingPathComponent("tg-server")
            process.arguments = ["--port", "0", "--data-dir", dataDirectory.path] + arguments
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Read the ready line: "tg-server: ready dc1=P dc2=P dc3=P".
            var text = ""
            let deadline = Date().addingTimeInterval(30)
            while !text.contains("\n"), Date() < deadline {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            for field in text.split(separator: " ") where field.hasPrefix("dc") {
                let parts = field.dropFirst(2).split(separator: "=")
                if parts.count == 2, let dc = Int32(parts[0]),
                    let port = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    ports[dc] = port
                }
            }
        }

        /// Stops the server with SIGTERM and returns its exit status.
        func stop() -> Int32 {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: dataDirectory)
            return process.terminationStatus
        }
    }
}

/// Reads a file handle to its end on another thread; `wait()` returns the bytes.
/// `@unchecked Sendable`: `data` is written once before `done` is signalled and read only after.
final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
