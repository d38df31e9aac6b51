import Foundation
import Testing

@testable import TestVectors

/// The test support's process runner: both pipes drained at once, input that is never read, the time limit.
@Suite struct ProcessRunnerTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func childFillingBothPipesInTurnFinishes() throws {
        // 2 MiB to each pipe in alternating 64 KiB blocks: a runner that reads one pipe to its end before the other
        // blocks the child on the other's full pipe (a pipe holds 64 KiB), and the limit kills it.
        let script = """
            i=0; while [ $i -lt 32 ]; do
              head -c 65536 /dev/zero | tr '\\0' o; head -c 65536 /dev/zero | tr '\\0' e >&2; i=$((i + 1))
            done
            """
        let result = try ProcessRunner.run(Self.shell, ["-c", script], timeout: 60)
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(result.stdout.count == 32 << 16 && result.stdout.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(result.stderr.count == 32 << 16 && result.stderr.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    /// Output already in the pipes when the runner stops reading is kept. Here the drain is asked to stop before its
    /// thread has looked at all (as on a loaded machine, where a child wrote, exited, and the reader had no turn
    /// within the grace time); the pipes stay open, so only what is in them can be read.
    @Test func whatIsInThePipesWhenReadingStopsIsKept() throws {
        for _ in 0..<20 {
            let out = Pipe()
            let err = Pipe()
            out.fileHandleForWriting.write(Data("printed".utf8))
            err.fileHandleForWriting.write(Data("Error: file is not a database".utf8))
            let drain = OutputDrain(out.fileHandleForReading, err.fileHandleForReading)
            let (stdout, stderr) = drain.finish(grace: 0)
            #expect(String(decoding: stdout, as: UTF8.self) == "printed")
            #expect(String(decoding: stderr, as: UTF8.self) == "Error: file is not a database")
            try out.fileHandleForWriting.close()
            try err.fileHandleForWriting.close()
        }
    }

    @Test func inputIsWrittenWhileOutputIsRead() throws {
        let input = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cat"), input: input, timeout: 60)
        #expect(result.succeeded)
        #expect(result.stdout == input)
    }

    @Test func inputTheChildNeverReadsDoesNotBlock() throws {
        let result = try ProcessRunner.run(Self.shell, ["-c", "exit 3"], input: Data(count: 1 << 20), timeout: 60)
        #expect(!result.timedOut)
        #expect(result.status == 3)
    }

    @Test func sleepingChildIsKilledAtTheLimit() throws {
        let start = Date()
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["60"], timeout: 1)
        #expect(result.timedOut)
        #expect(!result.succeeded)
        #expect(result.status == SIGTERM)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func childIgnoringSIGTERMIsKilledTwoSecondsLater() throws {
        let start = Date()
        // An ignored signal stays ignored across exec, so sleep itself ignores SIGTERM.
        let result = try ProcessRunner.run(Self.shell, ["-c", "trap '' TERM; exec sleep 60"], timeout: 1)
        #expect(result.timedOut)
        #expect(result.status == SIGKILL)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func childStartsWithNoSignalBlocked() throws {
        // Test threads block SIGTERM and SIGINT; a child inheriting that mask would ignore SIGTERM.
        let result = try ProcessRunner.run(Self.shell, ["-c", "grep SigBlk /proc/self/status"])
        #expect(result.output == "SigBlk:\t0000000000000000\n")
    }

    @Test func theTimeLimitEndsWhatTheChildStarted() throws {
        // A background sleep with a duration no other process uses, so that pgrep finds only it.
        let marker = "sleep 59.\(Int.random(in: 100_000...999_999))"
        let result = try ProcessRunner.run(Self.shell, ["-c", "\(marker) & exec sleep 60"], timeout: 1)
        #expect(result.timedOut)
        // The background sleep was in the child's process group, and went with it.
        let survivors = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", marker])
        #expect(survivors.status == 1, "still running: \(survivors.output)")
    }

    @Test func environmentIsAddedToOrRemovedFromTheTestsOwn() throws {
        setenv("PROCESS_RUNNER_TEST_REMOVED", "present", 1)
        let result = try ProcessRunner.run(
            Self.shell, ["-c", "echo \"$PROCESS_RUNNER_TEST_ADDED-${PROCESS_RUNNER_TEST_REMOVED:-absent}-$HOME\""],
            environment: ["PROCESS_RUNNER_TEST_ADDED": "added", "PROCESS_RUNNER_TEST_REMOVED": nil])
        #expect(result.output == "added-absent-\(ProcessInfo.processInfo.environment["HOME"] ?? "")\n")
    }

    @Test func startedChildIsReadWhileRunningAndKilledWhenDropped() throws {
        var child: RunningProcess? = try ProcessRunner.start(Self.shell, ["-c", "echo ready; exec sleep 60"])
        let ready = try #require(child).waitForOutput(timeout: 30) { $0.contains(UInt8(ascii: "\n")) }
        #expect(ready)
        let pid = try #require(child).processIdentifier
        #expect(kill(pid, 0) == 0)
        child = nil
        // Killed and reaped: the pid no longer names a process.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func waitForOutputGivesUpAtItsLimit() throws {
        let child = try ProcessRunner.start(URL(fileURLWithPath: "/bin/sleep"), ["60"])
        let start = Date()
        #expect(!child.waitForOutput(timeout: 0.5) { !$0.isEmpty })
        #expect(Date().timeIntervalSince(start) < 5)
        child.send(SIGKILL)
        #expect(child.wait(timeout: 30).status == SIGKILL)
    }
}
