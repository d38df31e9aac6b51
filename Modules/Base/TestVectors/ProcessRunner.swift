public import Foundation
import Glibc

/// Runs programs for tests — built executables, oracle tools, the venv's Python — and collects what they print.
///
/// Standard output and standard error are drained together, by one thread that polls both pipes, so a child that
/// fills one pipe while the test reads the other can never deadlock; `input` is written from another thread, so a
/// child that does not read it cannot block the test either. A child that outlives `timeout` is sent SIGTERM, then
/// SIGKILL two seconds later, and the result says it timed out. Children start with no signal blocked, each in its
/// own process group, which the time limit and a dropped handle kill as a whole.
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
    /// `environment` entries are added to the test's own (a `nil` value removes that variable).
    @available(*, noasync, message: "blocks a cooperative thread: await runOffPool instead")
    public static func run(
        _ executable: URL, _ arguments: [String] = [], input: Data? = nil, environment: [String: String?] = [:],
        currentDirectory: URL? = nil, timeout: Double = 120
    ) throws -> Result {
        try start(
            executable, arguments, input: input, environment: environment, currentDirectory: currentDirectory
        ).wait(timeout: timeout)
    }

    /// Starts `executable` and returns at once: a server, or a child the test talks to or kills while it runs.
    /// Its output is drained from the start; dropping the handle kills a child that is still running.
    public static func start(
        _ executable: URL, _ arguments: [String] = [], input: Data? = nil, environment: [String: String?] = [:],
        currentDirectory: URL? = nil
    ) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try withAllSignalsUnblocked { try process.run() }
        // Our copies of the child's ends: the drain sees end-of-file once the child (and anything it started
        // with the same pipes) has exited.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        try? stdin.fileHandleForReading.close()
        if let input {
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                // A child that exits early closes its end: with SIGPIPE blocked on this thread the write fails with
                // EPIPE (not our error) instead of the signal ending the test process.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        return RunningProcess(process, drain: OutputDrain(out.fileHandleForReading, err.fileHandleForReading))
    }

    /// Runs `body` with this thread's signal mask cleared. A child inherits the mask of the thread that starts it,
    /// and test threads (Dispatch workers) block SIGINT, SIGTERM and others: a child started from one could not be
    /// stopped with SIGTERM.
    static func withAllSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// A program SwiftPM built beside the test bundle (`tg-server`, `postbox-tool`, …).
    public static func builtExecutable(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
    }

    /// The Python of the project's venv (`.venv`, made by `make deps`), with Telethon and the other oracles.
    public static var venvPython: URL { Fixtures.repositoryRoot.appendingPathComponent(".venv/bin/python") }
}

/// A child started by `ProcessRunner.start`: what it printed so far, signals, and waiting for its end.
/// `@unchecked Sendable`: `Process` is used only through its thread-safe members (`isRunning`,
/// `processIdentifier`, `waitUntilExit`, `terminationStatus`); the output is behind `OutputDrain`'s lock.
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let drain: OutputDrain

    init(_ process: Process, drain: OutputDrain) {
        self.process = process
        self.drain = drain
    }

    /// Kills and reaps a child nobody waited for (and its process group: what it started), so no test leaves one
    /// running.
    deinit {
        if process.isRunning {
            kill(-process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        _ = drain.finish(grace: 1)
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }
    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }
    /// Standard output so far.
    public var output: Data { drain.snapshot().stdout }

    /// Waits until `condition` holds for the standard output so far (checked as each chunk arrives), the child
    /// closes its output, or `timeout` seconds pass; returns whether the condition held.
    @available(*, noasync, message: "blocks a cooperative thread: await waitForOutputOffPool instead")
    public func waitForOutput(timeout: Double, until condition: (Data) -> Bool) -> Bool {
        drain.wait(until: Date().addingTimeInterval(timeout), condition)
    }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL, …) to the child if it is still running.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the child to exit — sending SIGTERM after `timeout` seconds and SIGKILL two seconds later — and
    /// returns its status and everything it printed.
    @available(*, noasync, message: "blocks a cooperative thread: await waitOffPool instead")
    public func wait(timeout: Double = 120) -> ProcessRunner.Result {
        let watchdog = Watchdog(process, after: timeout)
        process.waitUntilExit()
        let timedOut = watchdog.cancel()
        // Something the child started may still hold its pipes: give it a moment, then stop reading.
        let (stdout, stderr) = drain.finish(grace: 5)
        return ProcessRunner.Result(
            status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}

/// Reads a child's standard output and error as they come, on one thread that polls both pipes.
/// `@unchecked Sendable`: the buffers and flags are read and written under `condition`'s lock.
final class OutputDrain: @unchecked Sendable {
    private let condition = NSCondition()
    private var stdout = Data()
    private var stderr = Data()
    private var finished = false
    private var stopRequested = false

    init(_ out: FileHandle, _ err: FileHandle) {
        Thread.detachNewThread { [self] in
            read(out, err)
            try? out.close()
            try? err.close()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    private func read(_ out: FileHandle, _ err: FileHandle) {
        var fds = [
            pollfd(fd: out.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: err.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while fds.contains(where: { $0.fd >= 0 }) {
            condition.lock()
            let stop = stopRequested
            condition.unlock()
            // A short poll, so a request to stop is seen even while the pipes stay open and quiet. Once asked to
            // stop, what is already in the pipes is still read, without waiting for more: a child that wrote and
            // exited before this thread had its turn (a loaded machine) loses nothing.
            let ready = poll(&fds, nfds_t(fds.count), stop ? 0 : 100)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if stop && ready == 0 { return }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fds[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    condition.lock()
                    if index == 0 {
                        stdout.append(contentsOf: buffer[..<count])
                    } else {
                        stderr.append(contentsOf: buffer[..<count])
                    }
                    condition.broadcast()
                    condition.unlock()
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    fds[index].fd = -1  // end of file: poll skips negative descriptors
                }
                fds[index].revents = 0
            }
        }
    }

    /// What was read so far.
    func snapshot() -> (stdout: Data, stderr: Data) {
        condition.lock()
        defer { condition.unlock() }
        return (stdout, stderr)
    }

    /// Waits until `predicate` holds for standard output, both pipes are closed, or `deadline` passes.
    func wait(until deadline: Date, _ predicate: (Data) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !predicate(stdout) {
            if finished || !condition.wait(until: deadline) { return predicate(stdout) }
        }
        return true
    }

    /// Waits up to `grace` seconds for both pipes to close, then stops reading; returns everything read.
    func finish(grace: Double) -> (stdout: Data, stderr: Data) {
        let deadline = Date().addingTimeInterval(grace)
        condition.lock()
        defer { condition.unlock() }
        while !finished, condition.wait(until: deadline) {}
        stopRequested = true
        while !finished { condition.wait() }
        return (stdout, stderr)
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
            // Foundation starts each child as the leader of its own process group: the group is what it started.
            let group = -process.processIdentifier
            kill(group, SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
                if process.isRunning { kill(group, SIGKILL) }
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
