import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// `updateMessageReactions` (core.telegram.org "Message reactions") through the state manager on virtual time: it has
/// no pts and is applied as it comes, replacing the stored message's `ReactionsMessageAttribute` (our own with its
/// `chosen_order`, the recent reactors); an empty `results` removes it; a message not stored is left alone.
@Suite struct MessageReactionsStateTests {
    static func reactions(_ results: [(String, Int32, Int32?)], recent: [Int64] = []) -> Api.MessageReactions {
        .messageReactions(
            .init(
                canSeeList: true,
                results: results.map { emoji, count, order in
                    .reactionCount(
                        .init(chosenOrder: order, reaction: .reactionEmoji(.init(emoticon: emoji)), count: count))
                },
                recentReactions: recent.map {
                    .messagePeerReaction(
                        .init(
                            peerId: .peerUser(.init(userId: $0)), date: 150,
                            reaction: .reactionEmoji(.init(emoticon: "👍"))))
                }))
    }

    @Test func reactionsReplaceTheStoredOnesAndAnEmptyListRemovesThem() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let friend = AccountStateManagerTests.friend
        let id = MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: 5)
        try harness.postbox.transactionSync { tx in
            try tx.addMessages([
                StoreMessage(
                    id: .id(id), timestamp: 100, flags: [.incoming], authorId: friend, text: "hi", attributes: [],
                    media: [])
            ])
        }
        let manager = harness.manager()
        let changed = LockedValue<[MessageId]>([])
        let watch = manager.appliedBatches.start(next: { summary in changed.withLock { $0 += summary.reactions } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ msgId: Int32, _ reactions: Api.MessageReactions) {
            harness.server.pipe.putNext(
                .updateShort(
                    .init(
                        update: .updateMessageReactions(
                            .init(
                                peer: .peerUser(.init(userId: friend.id.rawValue)), msgId: msgId, reactions: reactions)),
                        date: 200)))
            harness.advance(by: 0.01)
        }
        func stored() throws -> ReactionsMessageAttribute? {
            try harness.postbox.readTransactionSync { try $0.getMessage(id) }?.reactionsAttribute
        }
        push(5, Self.reactions([("👍", 2, 0), ("❤", 1, nil)], recent: [friend.id.rawValue]))
        let first = try #require(try stored())
        #expect(first.reactions == [.init(emoticon: "👍", count: 2, chosenOrder: 0), .init(emoticon: "❤", count: 1)])
        #expect(first.chosen == ["👍"] && first.recentPeers.map(\.peerId) == [friend] && first.canViewList)
        // The same again changes nothing; a message not stored is left alone.
        push(5, Self.reactions([("👍", 2, 0), ("❤", 1, nil)], recent: [friend.id.rawValue]))
        push(77, Self.reactions([("🔥", 1, nil)]))
        #expect(changed.withLock { $0 } == [id])
        // Everything taken back.
        push(5, Self.reactions([]))
        #expect(try stored() == nil)
        #expect(changed.withLock { $0 } == [id, id])
        #expect(manager.statistics.unhandledUpdates.isEmpty, "\(manager.statistics.unhandledUpdates)")
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }
}
