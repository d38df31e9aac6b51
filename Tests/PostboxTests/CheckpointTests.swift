import Foundation
import Postbox
import PostboxTesting
import TestVectors
import Testing

/// The write-ahead log is copied into the database off the writer queue once it passes SQLite's own threshold, the
/// writer never checkpoints in a commit while the background keeps up, and a checkpoint the caller asks for waits for
/// one in progress.
@Suite struct CheckpointTests {
    @Test func theLogIsCheckpointedOffTheWriter() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let text = String(repeating: "checkpoint ", count: 20)
        var next: Int32 = 1
        for _ in 0..<20 {
            let messages = (0..<1_000).map { offset in message(peer(1), next + Int32(offset), text: text) }
            next += 1_000
            try postbox.transactionSync { tx in try tx.addMessages(messages) }
        }
        // What the last commits handed to the background is done once this returns.
        try postbox.checkpoint()
        let statistics = postbox.writeStatistics()
        #expect(statistics.backgroundCheckpoints >= 1)
        #expect(statistics.inlineCheckpoints == 0)
        // The log restarts after background checkpoints: it never reached the 10,000 frames (of a 4 KiB page and a
        // 24-byte header) at which the writer would have checkpointed itself.
        let log = try FileManager.default.attributesOfItem(atPath: postbox.databasePath + "-wal")[.size] as? Int ?? 0
        #expect(log > 0 && log < 10_000 * (4_096 + 24))
        try postbox.checkpoint(truncate: true)
        #expect(try FileManager.default.attributesOfItem(atPath: postbox.databasePath + "-wal")[.size] as? Int == 0)
        #expect(try postbox.integrityCheck() == ["ok"])
        #expect(try postbox.readTransactionSync { try $0.searchMessages("checkpoint", limit: 30_000).count } == 20_000)
    }
}
