import Postbox
import PostboxTesting
import Testing

/// Table 13, the account layer's per-chat state (Telegram-iOS `PeerChatStateTable`; channels keep their pts here):
/// set, replaced, removed, kept across a reopen, absent in a Postbox that never wrote one, and read-only where it
/// should be.
@Suite struct PeerChatStateTests {
    @Test func statesAreKeptPerChatAndSurviveAReopen() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let channel = peer(7, namespace: 2)
        let other = peer(8, namespace: 2)
        // Nothing written yet: the table does not exist, and reads find nothing (no upgrade step needed).
        #expect(try postbox.readTransactionSync { try $0.getPeerChatState(channel) } == nil)
        try postbox.transactionSync { tx in
            try tx.setPeerChatState(channel, state: TestPeer(id: channel, name: "pts 10"))
            try tx.setPeerChatState(other, state: TestPeer(id: other, name: "pts 99"))
        }
        try postbox.transactionSync { tx in try tx.setPeerChatState(channel, state: TestPeer(id: channel, name: "pts 11")) }
        #expect(try postbox.readTransactionSync { try $0.getPeerChatState(channel) } as? TestPeer == TestPeer(id: channel, name: "pts 11"))
        // A read-only transaction cannot write.
        #expect(throws: PostboxError.self) {
            try postbox.readTransactionSync { tx in try tx.setPeerChatState(channel, state: nil) }
        }
        // A rolled-back transaction leaves the state as it was.
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try postbox.transactionSync { tx in
                try tx.setPeerChatState(channel, state: TestPeer(id: channel, name: "pts 12"))
                throw Abort()
            }
        }
        try postbox.transactionSync { tx in try tx.setPeerChatState(other, state: nil) }
        let reopened = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        #expect(try reopened.readTransactionSync { try $0.getPeerChatState(channel) } as? TestPeer == TestPeer(id: channel, name: "pts 11"))
        #expect(try reopened.readTransactionSync { try $0.getPeerChatState(other) } == nil)
    }
}
