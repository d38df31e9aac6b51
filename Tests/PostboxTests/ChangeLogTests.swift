import Dispatch
@testable import Postbox
import PostboxTesting
import SignalTesting
import Testing

/// The change log other processes catch up from, and the wake-up between two Postbox instances of one process.
@Suite("Change log and wake-up")
struct ChangeLogTests {
    @Test("the change log merges what each missed version touched, and says 'everything' past its gaps")
    func changeLogMergesAndDetectsGaps() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        try postbox.transactionSync { tx in try tx.addMessages([message(peer(1), 1)]) }
        try postbox.transactionSync { tx in try tx.updatePeers([TestPeer(id: peer(2), name: "Bo")]) }
        try postbox.transactionSync { tx in try tx.setPinnedItemIds([peer(1)]) }
        let version = postbox.transactionStateVersion
        let merged = try postbox.transactionSync { _ in
            try postbox.tables.changeLog.changes(after: version - 3, upTo: version)
        }
        #expect(!merged.everything)
        #expect(merged.historyPeers == [peer(1)])
        #expect(merged.peers == [peer(2)])
        #expect(merged.chatList)
        #expect(!merged.unsent && merged.preferences.isEmpty)

        let onlyLast = try postbox.transactionSync { _ in
            try postbox.tables.changeLog.changes(after: version - 1, upTo: version)
        }
        #expect(onlyLast.historyPeers.isEmpty && onlyLast.chatList)

        // Further back than the log keeps (or a version it never had): every view must reload.
        let tooOld = try postbox.transactionSync { _ in
            try postbox.tables.changeLog.changes(after: version - ChangeLogTable.retained - 1, upTo: version)
        }
        #expect(tooOld.everything)
        let missing = try postbox.transactionSync { _ in
            try postbox.tables.changeLog.changes(after: version, upTo: version + 2)
        }
        #expect(missing.everything)
        // Damaged summaries decode as "everything" rather than failing.
        #expect(ExternalChanges.decode([1, 2, 3]).everything)
    }

    @Test("a second Postbox instance on the same files wakes the first one's views")
    func twoInstancesInOneProcess() throws {
        let (first, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        try first.transactionSync { tx in try tx.addMessages((1...5).map { message(chat, $0) }) }
        let history = ViewRecorder(first.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 3))
        try first.drainQueue()
        let second = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        for id in Int32(6)...8 {
            try second.transactionSync { tx in try tx.addMessages([message(chat, id)]) }
            let arrived = history.wait(forCount: Int(id) - 4, seconds: 5)
            #expect(arrived, "the view did not show message \(id)")
            #expect(history.last?.entries.last?.message.id.id == id)
        }
        #expect(history.last?.entries.map(\.message.id.id) == [6, 7, 8])
        history.dispose()
    }
}
