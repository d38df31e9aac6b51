import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import Testing

/// `updateMessagePoll` (core.telegram.org "Polls and quizzes") through the state manager on virtual time: no pts,
/// applied as it comes to the shared poll every message showing it refers to; `min` results keep our answers; a poll
/// that closes is stored closed; a poll not stored is left alone.
@Suite struct MessagePollStateTests {
    static let pollId: Int64 = 4_242

    static func apiPoll(closed: Bool = false) -> Api.Poll {
        .poll(
            .init(
                id: pollId, closed: closed, question: .textWithEntities(.init(text: "Ăn gì?", entities: [])),
                answers: ["Phở", "Bún"].enumerated().map { index, text in
                    .pollAnswer(
                        .init(
                            text: .textWithEntities(.init(text: text, entities: [])), option: Array(String(index).utf8))
                    )
                }, hash: 0))
    }

    static func results(_ counts: [Int32], chosen: [Bool], min: Bool = false) -> Api.PollResults {
        .pollResults(
            .init(
                min: min,
                results: counts.enumerated().map { index, count in
                    .pollAnswerVoters(
                        .init(chosen: chosen[index], option: Array(String(index).utf8), voters: count, recentVoters: [])
                    )
                }, totalVoters: counts.reduce(0, +)))
    }

    @Test func pollUpdatesReplaceTheSharedPoll() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let friend = AccountStateManagerTests.friend
        let ids = [5, 6].map { MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: $0) }
        let media = telegramMedia(
            .messageMediaPoll(.init(poll: Self.apiPoll(), results: Self.results([0, 0], chosen: [false, false]))))
        try harness.postbox.transactionSync { tx in
            // Two messages show the same poll (one a forward).
            _ = try tx.addMessages(
                ids.map { id in
                    StoreMessage(
                        id: .id(id), timestamp: 100, flags: [.incoming], authorId: friend, text: "", attributes: [],
                        media: media)
                })
        }
        let manager = harness.manager()
        let changed = LockedValue<[Int64]>([])
        let watch = manager.appliedBatches.start(next: { summary in changed.withLock { $0 += summary.polls } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ pollId: Int64, _ results: Api.PollResults, poll: Api.Poll? = nil) {
            harness.server.pipe.putNext(
                .updateShort(
                    .init(
                        update: .updateMessagePoll(
                            .init(
                                peer: .peerUser(.init(userId: friend.id.rawValue)), msgId: 5, pollId: pollId,
                                poll: poll, results: results)),
                        date: 200)))
            harness.advance(by: 0.01)
        }
        func stored(_ id: MessageId) throws -> TelegramMediaPoll? {
            try harness.postbox.readTransactionSync { try $0.getMessage(id) }?.media.first as? TelegramMediaPoll
        }
        // We voted for Phở (our answer, not min).
        push(Self.pollId, Self.results([1, 0], chosen: [true, false]))
        for id in ids {
            let poll = try #require(try stored(id))
            #expect(poll.results.voters?.map(\.count) == [1, 0] && poll.hasVoted)
        }
        // Someone's vote, as min results: our choice stays.
        push(Self.pollId, Self.results([1, 1], chosen: [false, false], min: true))
        let afterMin = try #require(try stored(ids[1]))
        #expect(
            afterMin.results.voters?.map(\.count) == [1, 1]
                && afterMin.results.voters?.map(\.selected) == [true, false])
        // The poll closes; an unknown poll is left alone; the same again changes nothing.
        push(Self.pollId, Self.results([1, 1], chosen: [true, false]), poll: Self.apiPoll(closed: true))
        push(999, Self.results([3, 0], chosen: [false, false]))
        push(Self.pollId, Self.results([1, 1], chosen: [true, false]), poll: Self.apiPoll(closed: true))
        #expect(try stored(ids[0])?.isClosed == true)
        #expect(changed.withLock { $0 } == [Self.pollId, Self.pollId, Self.pollId])
        #expect(manager.statistics.unhandledUpdates.isEmpty, "\(manager.statistics.unhandledUpdates)")
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A vote in our own poll can be pushed before the answer to our `sendMedia` is stored (the sending task stores
    /// it, then hands the answer over): the update waits and is applied after the next batch.
    @Test func aVoteThatComesBeforeOurPollIsStoredIsAppliedOnceItIs() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let friend = AccountStateManagerTests.friend
        let id = MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: 7)
        let manager = harness.manager()
        let changed = LockedValue<[Int64]>([])
        let watch = manager.appliedBatches.start(next: { summary in changed.withLock { $0 += summary.polls } })
        manager.start()
        harness.advance(by: 0.01)
        let vote = Api.Updates.updateShort(
            .init(
                update: .updateMessagePoll(
                    .init(
                        peer: .peerUser(.init(userId: friend.id.rawValue)), msgId: 7, pollId: Self.pollId, poll: nil,
                        results: Self.results([0, 1], chosen: [false, false], min: true))),
                date: 200))
        harness.server.pipe.putNext(vote)
        harness.advance(by: 0.01)
        #expect(changed.withLock { $0 }.isEmpty, "no poll is stored yet")
        // Our send's answer is stored (with the poll as the server had it then), then handed to the state manager.
        try harness.postbox.transactionSync { tx in
            _ = try tx.addMessages([
                StoreMessage(
                    id: .id(id), timestamp: 100, flags: [], authorId: AccountStateManagerTests.me, text: "",
                    attributes: [],
                    media: telegramMedia(
                        .messageMediaPoll(
                            .init(poll: Self.apiPoll(), results: Self.results([0, 0], chosen: [false, false])))))
            ])
        }
        manager.addUpdates(
            .updateShort(
                .init(
                    update: .updateUserStatus(.init(userId: friend.id.rawValue, status: .userStatusRecently(.init()))),
                    date: 201)))
        harness.advance(by: 0.01)
        let poll = try harness.postbox.readTransactionSync { try $0.getMessage(id) }?.media.first as? TelegramMediaPoll
        #expect(poll?.results.voters?.map(\.count) == [0, 1])
        #expect(changed.withLock { $0 } == [Self.pollId])
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }
}
