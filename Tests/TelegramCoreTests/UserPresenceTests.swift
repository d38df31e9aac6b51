import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// Presence (core.telegram.org `userStatus*`, `updateUserStatus`): the status every user carries and the update land
/// in Postbox's presence table; the status line reads as Telegram's; and Telethon 1.45 on a real tg-server sees our
/// account come and go, as we see it.
@Suite(.serialized) struct UserPresenceTests {
    static func user(_ id: Int64, status: Api.UserStatus?) -> Api.User {
        .user(.init(id: id, accessHash: id * 3, firstName: "U\(id)", status: status))
    }

    static func presence(_ postbox: Postbox, _ peerId: PeerId) throws -> TelegramUserPresence? {
        try postbox.readTransactionSync { tx in try tx.getPeerPresence(peerId) as? TelegramUserPresence }
    }

    /// Users stored from any answer bring their status (all six constructors); our own is not stored; a user without
    /// a status leaves what was stored.
    @Test func usersBringTheirStatusIntoThePresenceTable() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let me = AccountStateManagerTests.me
        let statuses: [(Int64, Api.UserStatus, UserPresenceStatus)] = [
            (11, .userStatusOnline(.init(expires: 500)), .present(until: 500)),
            (12, .userStatusOffline(.init(wasOnline: 400)), .offline(since: 400)),
            (13, .userStatusRecently(.init()), .recently),
            (14, .userStatusLastWeek(.init()), .lastWeek),
            (15, .userStatusLastMonth(.init()), .lastMonth),
            (16, .userStatusEmpty, .none),
        ]
        try harness.postbox.transactionSync { tx in
            _ = try UpdateBatchApplier(accountPeerId: me).storePeers(
                users: statuses.map { Self.user($0.0, status: $0.1) }
                    + [Self.user(me.id.rawValue, status: .userStatusOnline(.init(expires: 9)))],
                chats: [], transaction: tx)
        }
        for (id, _, expected) in statuses {
            #expect(try Self.presence(harness.postbox, .user(id))?.status == expected, "user \(id)")
        }
        #expect(try Self.presence(harness.postbox, me) == nil)
        try harness.postbox.transactionSync { tx in
            _ = try UpdateBatchApplier(accountPeerId: me).storePeers(
                users: [Self.user(11, status: nil)], chats: [], transaction: tx)
        }
        #expect(try Self.presence(harness.postbox, .user(11))?.status == .present(until: 500))
    }

    /// `updateUserStatus` through the state manager replaces the stored presence and is not counted as unhandled;
    /// a peer view follows it.
    @Test func updateUserStatusReplacesThePresence() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let friend = AccountStateManagerTests.friend
        let summaries = LockedValue<[UpdateBatchApplier.Summary]>([])
        let watch = manager.appliedBatches.start(next: { summary in summaries.withLock { $0.append(summary) } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ status: Api.UserStatus) {
            harness.server.pipe.putNext(
                .updateShort(
                    .init(update: .updateUserStatus(.init(userId: friend.id.rawValue, status: status)), date: 200)))
            harness.advance(by: 0.01)
        }
        push(.userStatusOnline(.init(expires: 1_000)))
        #expect(try Self.presence(harness.postbox, friend)?.status == .present(until: 1_000))
        push(.userStatusOffline(.init(wasOnline: 990)))
        #expect(try Self.presence(harness.postbox, friend)?.status == .offline(since: 990))
        #expect(summaries.withLock { $0.flatMap(\.presences) } == [friend, friend])
        #expect(summaries.withLock { $0.flatMap(\.unhandled) }.isEmpty)
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// The line under a name, as Telegram's apps write it; an online status whose time ran out is the time it ran
    /// out.
    @Test func statusTextReadsAsTelegrams() {
        let now: Int32 = 1_800_000_000
        func text(_ status: UserPresenceStatus) -> String { TelegramUserPresence(status: status).statusText(at: now) }
        #expect(text(.present(until: now + 100)) == "online")
        #expect(text(.present(until: now - 300)) == "last seen 5 minutes ago")
        #expect(text(.offline(since: now - 30)) == "last seen just now")
        #expect(text(.offline(since: now - 60)) == "last seen 1 minute ago")
        #expect(text(.offline(since: now - 7_200)) == "last seen 2 hours ago")
        #expect(text(.offline(since: 1_799_000_000)) == "last seen 2027-01-03")
        #expect(text(.recently) == "last seen recently")
        #expect(text(.lastWeek) == "last seen within a week")
        #expect(text(.lastMonth) == "last seen within a month")
        #expect(text(.none) == "last seen a long time ago")
        #expect(TelegramUserPresence(status: .present(until: now + 1)).isOnline(at: now))
        #expect(!TelegramUserPresence(status: .present(until: now)).isOnline(at: now))
    }

    /// Telethon writes to our account and says it is online: `updateUserStatus` puts it in our presence table. Our
    /// `updateStatus` online then offline reaches Telethon's `events.UserUpdate` (with the time), `users.getFullUser`
    /// says offline; its own offline reaches us; once we hide our time from everybody, Telethon sees "recently".
    @Test func telethonSeesUsComeAndGoAndWeSeeIt() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622171", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "presence_peer.py",
            ["--phone", "9996622172", "--target-phone", "9996622171", "--wait", "30"])
        struct First: Decodable { let user_id: Int64 }
        let pia = PeerId.user(try JSONDecoder().decode(First.self, from: Data(firstLine.utf8)).user_id)
        func now() -> Int32 { Int32(Date().timeIntervalSince1970) }
        try await AccountIntegrationTests.wait("Pia online in Ann's presence table", timeout: 30) {
            try ann.presence(of: pia)?.isOnline(at: now()) == true
        }
        try await ann.updateStatus(offline: false)
        let wentOffline = now()
        try await ann.updateStatus(offline: true)
        // Telethon has read Ann's status after she left, and says it leaves too: Ann sees Pia offline. Then Ann
        // hides her time.
        let read = await peer.waitForOutputOffPool(timeout: 30) { $0.filter { $0 == UInt8(ascii: "\n") }.count >= 2 }
        #expect(read, "\(String(decoding: peer.output, as: UTF8.self))")
        try await AccountIntegrationTests.wait("Pia offline in Ann's presence table", timeout: 30) {
            guard case .offline? = try ann.presence(of: pia)?.status else { return false }
            return true
        }
        #expect(try await ann.setLastSeenPrivacy(.nobody) == .nobody)
        #expect(try await ann.lastSeenPrivacy() == .nobody)
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        struct Report: Decodable {
            let online: Bool
            let offline: Bool
            let last_seen: Int32?
            let full_status: String
            let hidden_status: String
        }
        let lastLine = try #require(result.output.split(separator: "\n").last)
        let report = try JSONDecoder().decode(Report.self, from: Data(lastLine.utf8))
        #expect(report.online && report.offline)
        #expect(abs(Int64(report.last_seen ?? 0) - Int64(wentOffline)) <= 5, "\(report)")
        #expect(report.full_status == "UserStatusOffline")
        #expect(report.hidden_status == "UserStatusRecently")
        // Ann adds Pia to her contacts and asks for her contacts' statuses: hiding her own time, she sees Pia's as
        // "recently" too (Telegram's rule).
        #expect(try await ann.importContact(phone: "9996622172", firstName: "Pia") == pia)
        #expect(try await ann.refreshContactPresences() == 1)
        #expect(try ann.presence(of: pia)?.status == .recently)
        try await world.close([ann])
    }
}
