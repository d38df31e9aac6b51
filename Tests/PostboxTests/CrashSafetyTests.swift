import Foundation
import Glibc
import Postbox
import PostboxTesting
import TestVectors
import Testing

/// A child process commits numbered transactions in a loop and is killed with SIGKILL at random moments; after
/// every kill the database passes the integrity check and holds exactly the committed transactions.
@Suite struct CrashSafetyTests {
    @Test func sigkillNeverLosesOrTearsACommittedTransaction() throws {
        let tool = ProcessRunner.builtExecutable("postbox-tool")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "build postbox-tool first")
        registerPostboxTestTypes()
        let directory = TemporaryDirectory(prefix: "postbox-crash")
        defer { directory.remove() }
        let account = directory.path + "/account-1"
        var generator = SeededGenerator(seed: 2024)
        var acknowledged: Int32 = 0
        for round in 0..<50 {
            let child = try ProcessRunner.start(
                tool, ["write-loop", "--path", account], environment: ["POSTBOX_KEY": testKeyHex])
            // Let it commit a random number of transactions, then kill it a random moment later.
            let target = Int.random(in: 1...6, using: &generator)
            let committed = child.waitForOutput(timeout: 60) { $0.split(separator: UInt8(ascii: "\n")).count >= target }
            try #require(committed, "round \(round): write-loop did not commit \(target) transactions")
            usleep(UInt32.random(in: 0...4000, using: &generator))
            child.send(SIGKILL)
            let result = child.wait(timeout: 30)
            for line in result.output.split(separator: "\n") {
                if let n = Int32(line.split(separator: " ").last ?? "") { acknowledged = max(acknowledged, n) }
            }

            let postbox = try Postbox.open(accountPath: account, encryption: testKey)
            #expect(try postbox.integrityCheck() == ["ok"], "round \(round)")
            let (counter, ids) = try postbox.readTransactionSync { tx -> (Int32, [Int32]) in
                let counter = Int32(String(decoding: try tx.keychainEntryForKey("counter") ?? [], as: UTF8.self)) ?? 0
                let ids = try tx.earlierMessages(peerId: peer(1), before: nil, count: Int.max).map(\.id.id)
                return (counter, ids)
            }
            // Every acknowledged commit is there; at most one more (committed, killed before printing).
            #expect(
                counter >= acknowledged && counter <= acknowledged + 1, "round \(round): \(counter) vs \(acknowledged)")
            #expect(ids == Array((1...max(counter, 1)).reversed()).filter { $0 <= counter }, "round \(round)")
            acknowledged = counter
        }
        #expect(acknowledged >= 50)
    }
}
