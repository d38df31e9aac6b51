import Foundation
import SQLite
import ServerStore
import Testing

/// Invite links in the store (migration 11): a version-10 database gains the tables; links, uses and requests read
/// back after a reopen.
@Suite struct InviteStoreTests {
    @Test func aVersion10DatabaseGainsTheInviteTables() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in try tx.insert(ServerStoreTests.user(1)) }
        try ServerStoreTests.downgrade(store.path, to: 10)
        let reopened = try ServerStore(path: store.path)
        #expect(try reopened.schemaVersion() == ServerStore.knownSchemaVersion)
        #expect(try reopened.read { tx in try tx.user(id: 1) } == ServerStoreTests.user(1))
        try reopened.write { tx in
            try tx.save(ChatInviteRecord(hash: "h", peerKind: .chat, peerId: 3, adminId: 1, date: 1000))
        }
        #expect(try reopened.read { tx in try tx.invite(hash: "h") }?.peerId == 3)
    }

    @Test func linksUsesAndRequestsSurviveAReopen() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = ChatInviteRecord(
            hash: "abc", peerKind: .channel, peerId: 7, adminId: 1, date: 1000, expireDate: 2000, usageLimit: 5,
            usage: 2, title: "t", permanent: true)
        try store.write { tx in
            try tx.save(link)
            try tx.save(
                ChatInviteRecord(
                    hash: "old", peerKind: .channel, peerId: 7, adminId: 1, date: 900, requestNeeded: true,
                    revoked: true))
            try tx.save(
                ChatInviteImporterRecord(
                    peerKind: .channel, peerId: 7, userId: 2, hash: "abc", date: 1001, requested: false))
            try tx.save(
                ChatInviteImporterRecord(
                    peerKind: .channel, peerId: 7, userId: 3, hash: "old", date: 1002, requested: true))
        }
        let reopened = try ServerStore(path: store.path)
        let (found, permanent, live, revoked, joined, pending) = try reopened.read { tx in
            (
                try tx.invite(hash: "abc"), try tx.permanentInvite(peerKind: .channel, peerId: 7, adminId: 1),
                try tx.invites(peerKind: .channel, peerId: 7, adminId: 1, revoked: false, before: nil, limit: 10),
                try tx.inviteCount(peerKind: .channel, peerId: 7, adminId: 1, revoked: true),
                try tx.importers(peerKind: .channel, peerId: 7, requested: false, hash: "abc", before: nil, limit: 10),
                try tx.pendingRequestCount(peerKind: .channel, peerId: 7)
            )
        }
        #expect(found == link && permanent == link && live == [link] && revoked == 1)
        #expect(joined.map(\.userId) == [2] && pending == 1)
    }
}
