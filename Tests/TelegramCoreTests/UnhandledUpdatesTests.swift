import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import TelegramApi
import TelegramCore
import Testing

/// No update is dropped silently: the kinds tg-server sends that a batch does not store are listed as ignored
/// (`UpdateBatchApplier.ignoredUpdates`, each with its reason), and any other unapplied kind is counted by
/// constructor in the state manager's statistics.
@Suite struct UnhandledUpdatesTests {
    @Test func ignoredKindsAreNotCountedAndUnknownOnesAre() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let unhandled = LockedValue<[String]>([])
        let watch = manager.appliedBatches.start(next: { summary in unhandled.withLock { $0 += summary.unhandled } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ update: Api.Update) {
            harness.server.pipe.putNext(.updateShort(.init(update: update, date: 200)))
            harness.advance(by: 0.01)
        }
        // Deliberately ignored: the send's id match, a channel's change (its peer comes in `chats`), topic typing.
        push(.updateMessageID(.init(id: 5, randomId: 77)))
        push(.updateChannel(.init(channelId: 9)))
        push(.updateUserTyping(.init(userId: 2, topMsgId: 3, action: .sendMessageTypingAction)))
        // Applied.
        harness.server.pipe.putNext(AccountStateManagerTests.message(1, pts: 11))
        harness.advance(by: 0.01)
        #expect(unhandled.withLock { $0 }.isEmpty, "\(unhandled.withLock { $0 })")
        #expect(manager.statistics.unhandledUpdates.isEmpty)
        // A kind this client does not apply and does not list: counted, twice.
        push(.updateRecentStickers)
        push(.updateRecentStickers)
        #expect(unhandled.withLock { $0 } == ["updateRecentStickers", "updateRecentStickers"])
        #expect(manager.statistics.unhandledUpdates == ["updateRecentStickers": 2])
        #expect(try harness.storedIds() == [1], "the message between them was stored")
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test func constructorNamesAreTheSchemas() {
        #expect(UpdateBatchApplier.constructorName(.updateSavedGifs) == "updateSavedGifs")
        #expect(
            UpdateBatchApplier.constructorName(.updateReadHistoryOutbox(.init(peer: .peerUser(.init(userId: 2)), maxId: 4, pts: 1, ptsCount: 1)))
                == "updateReadHistoryOutbox")
    }
}
