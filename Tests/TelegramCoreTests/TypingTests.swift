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

/// Typing, as Telegram's clients show it: `updateUserTyping` / `updateChatUserTyping` / `updateChannelUserTyping`
/// become notices that last six seconds unless repeated, a cancel or the typist's next message ends one at once; and
/// Telethon 1.45 on the other side of a real tg-server sees our account type, as we see it type.
@Suite(.serialized) struct TypingTests {
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Double = 1_000
        var now: Double { lock.withLock { value } }
        func advance(_ seconds: Double) { lock.withLock { value += seconds } }
    }

    @Test func aNoticeLastsSixSecondsUnlessRepeated() {
        let clock = ManualClock()
        let activities = PeerActivities(clock: { clock.now })
        let chat = PeerId.group(7)
        let (ann, ben) = (PeerId.user(1), PeerId.user(2))
        activities.note([TypingNotice(chat: chat, user: ann, active: true)])
        clock.advance(4)
        activities.note([TypingNotice(chat: chat, user: ben, active: true)])
        #expect(activities.typingUsers(in: chat) == [ann, ben])
        clock.advance(2.5)  // Ann's notice is 6.5 s old, Ben's 2.5 s
        #expect(activities.typingUsers(in: chat) == [ben])
        activities.note([TypingNotice(chat: chat, user: ben, active: true)])  // repeated: six more seconds
        clock.advance(5)
        #expect(activities.typingChats == [chat])
        activities.note([TypingNotice(chat: chat, user: ben, active: false)])  // cancelled
        #expect(activities.typingUsers(in: chat).isEmpty)
        #expect(activities.typingChats.isEmpty)
    }

    @Test func typingUpdatesBecomeNoticesAndAMessageEndsThem() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let notices = LockedValue<[TypingNotice]>([])
        let watch = manager.appliedBatches.start(next: { summary in notices.withLock { $0 += summary.typing } })
        manager.start()
        harness.advance(by: 0.01)
        let friend = AccountStateManagerTests.friend
        func push(_ update: Api.Update) {
            harness.server.pipe.putNext(.updateShort(.init(update: update, date: 200)))
            harness.advance(by: 0.01)
        }
        push(.updateUserTyping(.init(userId: 2, action: .sendMessageTypingAction)))
        push(
            .updateChatUserTyping(
                .init(chatId: 9, fromId: .peerUser(.init(userId: 2)), action: .sendMessageRecordAudioAction)))
        push(
            .updateChannelUserTyping(
                .init(channelId: 5, fromId: .peerUser(.init(userId: 2)), action: .sendMessageCancelAction)))
        // In a forum topic: not the chat's own typing, left out.
        push(.updateUserTyping(.init(userId: 2, topMsgId: 3, action: .sendMessageTypingAction)))
        harness.server.pipe.putNext(AccountStateManagerTests.message(1, pts: 11))
        harness.advance(by: 0.01)
        #expect(
            notices.withLock { $0 } == [
                TypingNotice(chat: friend, user: friend, active: true),
                TypingNotice(chat: .group(9), user: friend, active: true),
                TypingNotice(chat: .channel(5), user: friend, active: false),
                TypingNotice(chat: friend, user: friend, active: false),
            ])
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test func telethonTypesAndSeesOurAccountTypeBack() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622161", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "typing_peer.py",
            ["--phone", "9996622162", "--target-phone", "9996622161", "--wait", "30"])
        struct First: Decodable { let user_id: Int64 }
        let tess = PeerId.user(try JSONDecoder().decode(First.self, from: Data(firstLine.utf8)).user_id)
        // Tess wrote "hi", then types: Ann sees her typing in their chat.
        try await AccountIntegrationTests.wait("Tess typing, seen by Ann", timeout: 30) {
            ann.activities.typingUsers(in: tess) == [tess]
        }
        // Ann types back; Telethon's events.UserUpdate sees it, and Tess's "done" ends her typing here.
        try await ann.sendTyping(in: tess)
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        struct Report: Decodable {
            let saw_typing: Bool
            let actions: [String]
        }
        let lastLine = try #require(result.output.split(separator: "\n").last)
        let report = try JSONDecoder().decode(Report.self, from: Data(lastLine.utf8))
        #expect(report.saw_typing)
        #expect(report.actions.first == "SendMessageTypingAction")
        // Her "done" arrives and her typing is over (that a message ends it at once is
        // `typingUpdatesBecomeNoticesAndAMessageEndsThem`'s; here the summary reaches `activities` just after the
        // commit that stores the message, so it is waited for).
        try await AccountIntegrationTests.wait("Tess's 'done' stored and her typing over") {
            try AccountIntegrationTests.storedMessages(ann, with: tess).map(\.text).contains("done")
                && ann.activities.typingUsers(in: tess).isEmpty
        }
        try await world.close([ann])
    }
}
