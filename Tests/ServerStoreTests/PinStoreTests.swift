import Foundation
import SQLite
import ServerStore
import Testing

/// Pinned messages in the store (migration 10): a version-9 database gains the flags; pins survive a reopen.
@Suite struct PinStoreTests {
    static func message(owner: Int64, id: Int64, peer: PeerRef) -> MessageRecord {
        MessageRecord(
            owner: owner, id: id, globalId: id, peer: peer, fromId: owner, outgoing: true, date: 1000, text: "m\(id)")
    }

    /// A version-9 database (the pin columns and indexes removed and the version set back) opens migrated, its
    /// messages kept and unpinned.
    @Test func aVersion9DatabaseGainsThePinFlags() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            try tx.insert(ServerStoreTests.user(1))
            try tx.insert(Self.message(owner: 1, id: 1, peer: .user(2)))
        }
        try ServerStoreTests.downgrade(store.path, to: 9)
        let reopened = try ServerStore(path: store.path)
        #expect(try reopened.schemaVersion() == ServerStore.knownSchemaVersion)
        #expect(try reopened.read { tx in try tx.message(owner: 1, id: 1) }?.pinned == false)
        #expect(try reopened.write { tx in try tx.setPinned(owner: 1, id: 1, pinned: true) })
        #expect(try reopened.read { tx in try tx.topPinnedMessageId(owner: 1, peer: .user(2)) } == 1)
    }

    /// Pins in a box and in a channel read back after the store is opened again; setting a flag to what it is
    /// reports no change.
    @Test func pinsSurviveAReopen() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            for id in Int64(1)...3 { try tx.insert(Self.message(owner: 1, id: id, peer: .chat(9))) }
            try tx.insert(ChannelRecord(id: 5, title: "T", creator: 1, date: 1000, broadcast: false))
            for id in Int64(1)...3 {
                try tx.insert(ChannelMessageRecord(channelId: 5, id: id, fromId: 1, post: false, date: 1000, text: "c"))
            }
            #expect(try tx.setPinned(owner: 1, id: 1, pinned: true))
            #expect(try tx.setPinned(owner: 1, id: 2, pinned: true))
            #expect(try !tx.setPinned(owner: 1, id: 2, pinned: true))
            #expect(try tx.setChannelMessagePinned(channelId: 5, id: 3, pinned: true))
        }
        let reopened = try ServerStore(path: store.path)
        let (box, top, channelTop, channelIds, flagged) = try reopened.read { tx in
            (
                try tx.pinnedMessageIds(owner: 1, peer: .chat(9), limit: 10),
                try tx.topPinnedMessageId(owner: 1, peer: .chat(9)),
                try tx.topPinnedChannelMessageId(channelId: 5),
                try tx.pinnedChannelMessageIds(channelId: 5, limit: 10),
                try tx.channelMessage(channelId: 5, id: 3)?.pinned
            )
        }
        #expect(box == [2, 1] && top == 2 && channelTop == 3 && channelIds == [3] && flagged == true)
        #expect(try reopened.read { tx in try tx.topPinnedMessageId(owner: 1, peer: .chat(8)) } == nil)
    }
}
