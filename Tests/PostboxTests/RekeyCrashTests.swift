import Foundation
import Glibc
import Postbox
import PostboxTesting
import SecretFiles
import TestVectors
import Testing

/// `postbox-tool rekey` killed with SIGKILL at every phase of the two-phase rekey, and at seeded random moments
/// while it re-encrypts: after each kill, opening the account with its key file settles the rekey, exactly one of
/// the two keys opens the database, the key file holds that key (0600, no pending or temporary file left), and every
/// message is there and intact.
@Suite(.serialized) struct RekeyCrashTests {
    static let messageCount: Int32 = 2_000
    static let textLength = 1_000

    /// A running `postbox-tool rekey` whose `phase …` lines are collected as they arrive.
    final class RekeyProcess: @unchecked Sendable {
        // `@unchecked Sendable`: `lines` is only touched under `lock`.
        let process = Process()
        private let lock = NSLock()
        private var lines: [String] = []
        private var buffer = Data()
        private let arrived = DispatchSemaphore(value: 0)

        init(account: String, keyFile: String, newKeyFile: String, environment: [String: String]) throws {
            process.executableURL = ProcessRunner.builtExecutable("postbox-tool")
            process.arguments = ["rekey", "--path", account, "--key-file", keyFile, "--new-key-file", newKeyFile]
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "POSTBOX_KEY")
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            out.fileHandleForReading.readabilityHandler = { [self] handle in
                let chunk = handle.availableData
                lock.lock()
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0a) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                    arrived.signal()
                }
                lock.unlock()
                if chunk.isEmpty { handle.readabilityHandler = nil }
            }
            try process.run()
        }

        var phases: [String] {
            lock.lock()
            defer { lock.unlock() }
            return lines.filter { $0.hasPrefix("phase ") }.map { String($0.dropFirst(6)) }
        }

        /// Waits (up to `timeout` seconds) until `phase` has been printed.
        func wait(for phase: PostboxRekeyPhase, timeout: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !phases.contains(phase.rawValue) {
                if arrived.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .timedOut {
                    return phases.contains(phase.rawValue)
                }
            }
            return true
        }

        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Opens the account with its key file (settling the rekey) and checks everything; returns the stored key.
    static func settleAndCheck(
        _ account: String, _ keyFile: PostboxKeyFile, old: PostboxEncryptionParameters,
        new: PostboxEncryptionParameters, expected: PostboxEncryptionParameters?, _ what: String
    ) throws -> PostboxEncryptionParameters {
        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        let stored = try keyFile.read()
        #expect(stored == old || stored == new, "\(what): the key file holds neither key")
        if let expected { #expect(stored == expected, "\(what): the wrong key won") }
        let oldOpens = keyOpens(old, postbox.databasePath)
        let newOpens = keyOpens(new, postbox.databasePath)
        #expect(oldOpens != newOpens, "\(what): old opens \(oldOpens), new opens \(newOpens)")
        #expect((stored == old) == oldOpens, "\(what): the stored key does not open the database")
        #expect(!FileManager.default.fileExists(atPath: keyFile.pendingPath), "\(what): pending key left")
        #expect(SecretFile.mode(of: keyFile.path) == 0o600, "\(what)")
        let folder = (keyFile.path as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(what): \(leftovers)")
        #expect(try postbox.integrityCheck() == ["ok"], "\(what)")
        let messages = try storedMessages(postbox)
        #expect(messages.count == Int(messageCount), "\(what)")
        let intact = messages.enumerated().allSatisfy { index, message in
            message.0 == Int32(index + 1) && message.1 == rekeyText(message.0, textLength)
        }
        #expect(intact, "\(what): a message is missing or changed")
        return stored
    }

    @Test func sigkillAtEveryPhaseAndDuringTheRewriteNeverLosesTheDatabase() throws {
        let tool = ProcessRunner.builtExecutable("postbox-tool")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "build postbox-tool first")
        let (directory, account, keyFile) = try makeKeyedAccount(
            messages: Self.messageCount, textLength: Self.textLength)
        defer { directory.remove() }
        var generator = SeededGenerator(seed: 0x2e4e7)
        var current = testKey
        var round = 0

        func newKeyFile() throws -> (String, PostboxEncryptionParameters) {
            round += 1
            let key = try PostboxEncryptionParameters(keyAndSalt: generator.bytes(48))
            let path = directory.path + "/new-key-\(round)"
            try SecretFile.create(key.key + key.salt, at: path)
            return (path, key)
        }

        // 1. Stopped at each phase, then killed: before the re-encryption the old key must win, after it the new.
        for phase in PostboxRekeyPhase.allCases {
            let (path, newKey) = try newKeyFile()
            let process = try RekeyProcess(
                account: account, keyFile: keyFile.path, newKeyFile: path,
                environment: ["POSTBOX_TOOL_REKEY_PAUSE": phase.rawValue])
            let reached = process.wait(for: phase)
            if phase == .pendingKeyRecorded {
                #expect(SecretFile.mode(of: keyFile.pendingPath) == 0o600)
            }
            process.kill()
            try #require(reached, "the tool never reached \(phase)")
            let winner = phase == .pendingKeyRecorded || phase == .readersDrained ? current : newKey
            current = try Self.settleAndCheck(
                account, keyFile, old: current, new: newKey, expected: winner, "paused at \(phase)")
        }

        // 2. How long the re-encryption takes, from a run left to finish.
        let (calibrationPath, calibrationKey) = try newKeyFile()
        let calibration = try RekeyProcess(
            account: account, keyFile: keyFile.path, newKeyFile: calibrationPath,
            environment: ["POSTBOX_TOOL_REKEY_TRACE": "1"])
        try #require(calibration.wait(for: .readersDrained))
        let rewriteStart = Date()
        try #require(calibration.wait(for: .databaseRekeyed))
        let rewrite = Date().timeIntervalSince(rewriteStart)
        calibration.process.waitUntilExit()
        #expect(calibration.process.terminationStatus == 0)
        current = try Self.settleAndCheck(
            account, keyFile, old: current, new: calibrationKey, expected: calibrationKey, "calibration")

        // 3. Killed at seeded random moments from the pending key to a little past the rewrite.
        var killedDuringRewrite = 0
        for index in 0..<16 {
            let (path, newKey) = try newKeyFile()
            let process = try RekeyProcess(
                account: account, keyFile: keyFile.path, newKeyFile: path,
                environment: ["POSTBOX_TOOL_REKEY_TRACE": "1"])
            try #require(process.wait(for: .pendingKeyRecorded))
            usleep(UInt32(Double.random(in: 0...(rewrite * 1.3 + 0.002), using: &generator) * 1e6))
            process.kill()
            let phases = process.phases
            if phases.last == PostboxRekeyPhase.readersDrained.rawValue { killedDuringRewrite += 1 }
            // Killed before the rewrite began: the old key; after it was reported: the new; in between: either.
            let expected: PostboxEncryptionParameters? =
                phases.contains(PostboxRekeyPhase.databaseRekeyed.rawValue)
                ? newKey : phases.contains(PostboxRekeyPhase.readersDrained.rawValue) ? nil : current
            current = try Self.settleAndCheck(
                account, keyFile, old: current, new: newKey, expected: expected,
                "random kill \(index) after \(phases.last ?? "nothing")")
        }
        print(
            "RekeyCrashTests: rewrite \(Int(rewrite * 1000)) ms; \(killedDuringRewrite) of 16 random kills in it")
        #expect(killedDuringRewrite >= 2, "too few kills during the re-encryption to test it")
    }
}
