import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// `updateNewScheduledMessage` and `updateDeleteScheduledMessages` (core.telegram.org "Scheduled messages") applied
/// into Postbox: kept in `ScheduledMessages` under `Namespaces.Message.scheduledCloud`, apart from the chat's history,
/// and removed when deleted or sent; neither counted as unhandled.
@Suite struct ScheduledUpdatesTests {
    static func scheduled(_ id: Int32, date: Int32, text: String) -> Api.Update {
        .updateNewScheduledMessage(
            .init(
                message: .message(
                    .init(
                        out: true, fromScheduled: true, id: id, fromId: .peerUser(.init(userId: 1)),
                        peerId: .peerUser(.init(userId: 2)), date: date, message: text))))
    }

    @Test func scheduledMessagesAreStoredApartAndRemoved() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let summaries = LockedValue<[UpdateBatchApplier.Summary]>([])
        let watch = manager.appliedBatches.start(next: { summary in summaries.withLock { $0.append(summary) } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ update: Api.Update) {
            harness.server.pipe.putNext(.updateShort(.init(update: update, date: 200)))
            harness.advance(by: 0.01)
        }
        let chat = PeerId.user(2)
        func stored() throws -> [ScheduledMessage] {
            try harness.postbox.readTransactionSync { tx in try ScheduledMessages.messages(chat, transaction: tx) }
        }
        push(Self.scheduled(2, date: 5000, text: "later"))
        push(Self.scheduled(1, date: 4000, text: "sooner"))
        #expect(try stored().map(\.text) == ["sooner", "later"])
        #expect(try stored().allSatisfy { $0.id.namespace == Namespaces.Message.scheduledCloud })
        #expect(try harness.storedIds().isEmpty, "nothing in the chat's history")
        push(
            .updateDeleteScheduledMessages(
                .init(peer: .peerUser(.init(userId: 2)), messages: [1], sentMessages: [40])))
        #expect(try stored().map(\.text) == ["later"])
        let all = summaries.withLock { $0 }
        #expect(all.flatMap(\.scheduled).map(\.id) == [2, 1])
        #expect(all.flatMap(\.unscheduled).map(\.id) == [1])
        #expect(all.flatMap(\.unhandled).isEmpty, "\(all.flatMap(\.unhandled))")
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }
}
