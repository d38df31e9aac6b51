public import Foundation

/// Runs programs for tests — built executables, oracle tools, the venv's Python — and collects what they print.
///
/// Standard output and standard error are drained together, each on its own thread, so a child that fills one pipe
/// while the test reads the other can never deadlock; a child that outlives `timeout` is sent SIGTERM, then SIGKILL
/// two seconds later, and the result says it timed out.
public enum ProcessRunner {
    /// What a finished program left behind.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public let timedOut: Bool

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
        /// Exited with status 0 before the time limit.
        public var succeeded: Bool { status == 0 && !timedOut }
    }

    /// Runs `executable` with `arguments` to completion. `input` is written to its standard input (then closed);
    /// `environment` entries are added to the test's own.
    public static func run(
        _ executable: URL, _ arguments: [String] = [], input: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double = 120
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        let outReader = PipeDrain(out.fileHandleForReading)
        let errReader = PipeDrain(err.fileHandleForReading)
        if let input {
            // A child that exits early closes its end; the write then fails with EPIPE, which is not our error.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        let watchdog = Watchdog(process, after: timeout)
        process.waitUntilExit()
        let timedOut = watchdog.cancel()
        return Result(
            status: process.terminationStatus, stdout: outReader.wait(), stderr: errReader.wait(), timedOut: timedOut)
    }

    /// A program SwiftPM built beside the test bundle (`tg-server`, `postbox-tool`, …).
    public static func builtExecutable(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
    }

    /// The Python of the project's venv (`.venv`, made by `make deps`), with Telethon and the other oracles.
    public static var venvPython: URL { Fixtures.repositoryRoot.appendingPathComponent(".venv/bin/python") }
}

/// Reads a file handle to its end on its own thread.
/// `@unchecked Sendable`: `data` is written once, before `done` is signalled, and read only after `wait()`.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            try? handle.close()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Terminates a process that runs past its time limit.
/// `@unchecked Sendable`: `fired` and `cancelled` are read and written under `lock`.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var cancelled = false
    private let timer: any DispatchSourceTimer

    init(_ process: Process, after seconds: Double) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [self] in
            lock.lock()
            let skip = cancelled
            if !skip { fired = true }
            lock.unlock()
            guard !skip, process.isRunning else { return }
            process.terminate()
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        timer.resume()
    }

    /// Stops the timer; returns whether it had already fired.
    func cancel() -> Bool {
        lock.lock()
        cancelled = true
        let result = fired
        lock.unlock()
        timer.cancel()
        return result
    }
}
