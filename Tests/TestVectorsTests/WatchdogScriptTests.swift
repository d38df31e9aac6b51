import Foundation
import TestVectors
import Testing

/// `BuildTools/scripts/watchdog.py`, which `make test` runs the tests under: the time limit, and the processes a
/// step leaves behind.
@Suite struct WatchdogScriptTests {
    static func watchdog(limit: Double, name: String, _ command: [String]) throws -> ProcessRunner.Result {
        let script = Fixtures.repositoryRoot.appendingPathComponent("BuildTools/scripts/watchdog.py")
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, "--limit", String(limit), "--name", name, "--"] + command, timeout: 120)
    }

    /// A `sleep` with a duration no other process uses, so that pgrep finds only it.
    static func uniqueSleep() -> String { "sleep 58.\(Int.random(in: 100_000...999_999))" }

    static func isRunning(_ commandLine: String) throws -> Bool {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", commandLine]).status == 0
    }

    @Test func aStepPastTheLimitIsKilledAndNamed() throws {
        let sleeper = Self.uniqueSleep()
        let start = Date()
        let result = try Self.watchdog(limit: 1, name: "the nap", ["/bin/sh", "-c", sleeper])
        #expect(result.status == 124)
        #expect(result.errorOutput.contains("make: 'the nap' still running after 1 s"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains(sleeper))
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(try !Self.isRunning(sleeper))
    }

    @Test func aStepThatLeavesAProcessRunningFails() throws {
        let sleeper = Self.uniqueSleep()
        // The background sleep outlives its shell, as a server a test forgot to stop would outlive the test.
        let result = try Self.watchdog(limit: 60, name: "the leaver", ["/bin/sh", "-c", "\(sleeper) & exit 0"])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("make: 'the leaver' ended and left 1 process(es) running"))
        #expect(result.errorOutput.contains(sleeper))
        #expect(try !Self.isRunning(sleeper))
    }

    @Test func aCleanStepKeepsItsStatus() throws {
        let result = try Self.watchdog(limit: 60, name: "clean", ["/bin/sh", "-c", "echo out; exit 3"])
        #expect(result.status == 3)
        #expect(result.output == "out\n")
        #expect(result.errorOutput.isEmpty)
    }
}
