import Foundation
import SQLite
import ServerStore
import Testing

/// Channels in the store (migration 9): a database of version 8 gains the channel tables; a channel's messages are
/// numbered per channel and its pts log reads back in order.
@Suite struct ChannelStoreTests {
    /// A version-8 database (the channel tables removed and the version set back, as tg-server left it before
    /// migration 9 existed) opens migrated, its accounts kept.
    @Test func aVersion8DatabaseGainsTheChannelTables() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in try tx.insert(ServerStoreTests.user(1)) }
        try ServerStoreTests.downgrade(store.path, to: 9)
        let database = try Database(path: store.path)
        for table in [
            "channels", "channel_members", "channel_messages", "channel_random_ids", "channel_updates",
            "channel_message_views",
        ] {
            try database.execute("DROP TABLE \(table)")
        }
        try database.execute("PRAGMA user_version = 8")
        let reopened = try ServerStore(path: store.path)
        #expect(try reopened.schemaVersion() == ServerStore.knownSchemaVersion)
        #expect(try reopened.read { tx in try tx.user(id: 1) } == ServerStoreTests.user(1))
        try reopened.write { tx in
            try tx.insert(ChannelRecord(id: 5, title: "T", creator: 1, date: 1000, broadcast: false))
        }
        #expect(try reopened.read { tx in try tx.channel(id: 5) }?.title == "T")
    }

    @Test func messageIdsAndPtsArePerChannel() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            for id in [Int64(10), 20] {
                try tx.insert(ChannelRecord(id: id, title: "C\(id)", creator: 1, date: 1000, broadcast: id == 20))
                for n in 1...3 {
                    let message = try tx.allocateChannelMessageId(channelId: id)
                    #expect(message == Int64(n))
                    try tx.insert(
                        ChannelMessageRecord(
                            channelId: id, id: message, fromId: 1, post: id == 20, date: 1000, text: "m\(n)"))
                    let pts = try tx.appendChannelUpdate(channelId: id, ptsCount: 1, date: 1000) { [UInt8($0)] }
                    #expect(pts == Int64(n))
                }
            }
        }
        let (log, top, count) = try store.read { tx in
            (
                try tx.channelUpdates(channelId: 20, after: 1, limit: 10), try tx.topChannelMessage(channelId: 10),
                try tx.channelMessageCount(channelId: 10)
            )
        }
        #expect(log.map(\.pts) == [2, 3] && log.map(\.body) == [[2], [3]])
        #expect(top?.id == 3 && count == 3)
        #expect(try store.read { tx in try tx.channel(id: 10) }?.pts == 3)
    }

    /// A deleted channel's messages, log and views go; its members' relations stay.
    @Test func purgingAChannelKeepsOnlyItsMembers() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            try tx.insert(ChannelRecord(id: 7, title: "T", creator: 1, date: 1000, broadcast: true))
            try tx.upsert(ChannelMemberRecord(channelId: 7, userId: 1, inviter: 1, date: 1000))
            try tx.insert(ChannelMessageRecord(channelId: 7, id: 1, fromId: 1, post: true, date: 1000, text: "p"))
            _ = try tx.appendChannelUpdate(channelId: 7, ptsCount: 1, date: 1000) { _ in [1] }
            _ = try tx.viewChannelMessage(channelId: 7, id: 1, userId: 1)
            try tx.purgeChannelContent(channelId: 7)
        }
        let (count, log, member) = try store.read { tx in
            (
                try tx.channelMessageCount(channelId: 7), try tx.channelUpdates(channelId: 7, after: 0, limit: 10),
                try tx.channelMember(channelId: 7, userId: 1)
            )
        }
        #expect(count == 0 && log.isEmpty && member?.status == .member)
    }

    /// Migration 12 on a version-11 database: the settings columns arrive with their defaults; saved settings, a
    /// member's last post and a post's author read back after a reopen.
    @Test func channelSettingsArriveAndSurviveAReopen() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            try tx.insert(ChannelRecord(id: 5, title: "T", creator: 1, date: 1000, broadcast: false))
            try tx.upsert(ChannelMemberRecord(channelId: 5, userId: 2, inviter: 1, date: 1000))
        }
        try ServerStoreTests.downgrade(store.path, to: 11)
        let migrated = try ServerStore(path: store.path)
        #expect(try migrated.schemaVersion() == ServerStore.knownSchemaVersion)
        let before = try #require(try migrated.read { tx in try tx.channel(id: 5) })
        #expect(before.slowmodeSeconds == 0 && !before.signatures && before.defaultBannedRights == nil)
        try migrated.write { tx in
            var channel = before
            channel.slowmodeSeconds = 30
            channel.signatures = true
            channel.defaultBannedRights = [1, 2, 3]
            try tx.updateSettings(of: channel)
            try tx.setLastPost(channelId: 5, userId: 2, date: 1234)
            try tx.insert(
                ChannelMessageRecord(channelId: 5, id: 1, fromId: 1, post: true, date: 1000, text: "p", postAuthor: "Ann"))
        }
        let reopened = try ServerStore(path: store.path)
        let (channel, last, message) = try reopened.read { tx in
            (
                try tx.channel(id: 5), try tx.lastPost(channelId: 5, userId: 2),
                try tx.channelMessage(channelId: 5, id: 1)
            )
        }
        #expect(channel?.slowmodeSeconds == 30 && channel?.signatures == true && channel?.defaultBannedRights == [1, 2, 3])
        #expect(last == 1234 && message?.postAuthor == "Ann")
    }
}
