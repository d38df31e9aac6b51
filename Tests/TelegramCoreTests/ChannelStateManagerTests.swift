import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TLRuntime
import TelegramApi
import TelegramCore
import Testing
import UpdateSequencing

/// Channels' own pts in the state manager's shell, on virtual time over a real Postbox with a scripted server: a gap
/// waits, then `updates.getChannelDifference` is asked with the stored access hash and the channel's pts and its
/// messages are stored; `final: false` asks again; too long resets with a hole; two channels' gaps are apart; the
/// common pts is never moved by a channel.
@Suite struct ChannelStateManagerTests {
    static let me = PeerId.user(1)
    static let channelA: Int64 = 700
    static let channelB: Int64 = 800

    /// A scripted server: listening at once, pushes through `pipe`, `getState` pts 10, channel differences popped per
    /// channel; every channel call recorded with the access hash it named.
    final class ScriptedServer: @unchecked Sendable {
        let pipe = ValuePipe<Api.Updates?>()
        let lock = NSLock()
        var channelDifferences: [Int64: [Api.updates.ChannelDifference]] = [:]
        var channelAsked: [(channel: Int64, accessHash: Int64, pts: Int32)] = []

        var environment: AccountStateManager.Environment {
            AccountStateManager.Environment(
                updates: .single(nil) |> then(pipe.signal()),
                getState: { .single(.state(.init(pts: 10, qts: 0, date: 100, seq: 0, unreadCount: 0))) },
                getDifference: { _ in .fail(.network("no common difference scripted")) },
                getChannelDifference: { [self] channel, pts in
                    lock.withLock {
                        guard case .inputChannel(let input) = channel else { return .fail(.network("bad input")) }
                        channelAsked.append((input.channelId, input.accessHash, pts))
                        guard var queue = channelDifferences[input.channelId], !queue.isEmpty else {
                            return .fail(.network("no channel difference scripted"))
                        }
                        let next = queue.removeFirst()
                        channelDifferences[input.channelId] = queue
                        return .single(next)
                    }
                })
        }

        var asked: [[Int64]] { lock.withLock { channelAsked.map { [$0.channel, $0.accessHash, Int64($0.pts)] } } }
    }

    static func post(_ id: Int32, channel: Int64 = channelA) -> Api.Message {
        .message(
            .init(
                post: true, id: id, peerId: .peerChannel(.init(channelId: channel)), date: 100 + id, message: "p\(id)",
                views: 10))
    }

    static func newPost(_ id: Int32, pts: Int32, channel: Int64 = channelA) -> Api.Updates {
        .updateShort(
            .init(
                update: .updateNewChannelMessage(.init(message: post(id, channel: channel), pts: pts, ptsCount: 1)),
                date: 100))
    }

    static func apiChannel(_ id: Int64) -> Api.Chat {
        .channel(
            .init(broadcast: true, id: id, accessHash: id * 10, title: "Channel \(id)", photo: .chatPhotoEmpty, date: 1)
        )
    }

    struct Harness {
        let directory = TemporaryDirectory(prefix: "channel-state")
        let postbox: Postbox
        let scheduler = VirtualTimeScheduler()
        let server = ScriptedServer()

        /// A Postbox that knows `channels` with these stored pts (`nil`: the channel is stored, its state is not).
        init(channels: [Int64: Int32?] = [channelA: 10, channelB: 100]) throws {
            registerTelegramCoreTypes()
            postbox = try Postbox.open(
                accountPath: directory.path + "/account-1",
                encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
                globalMessageIds: Namespaces.globalMessageIds)
            try postbox.transactionSync { tx in
                for (id, pts) in channels {
                    try tx.updatePeers([
                        TelegramChannel(
                            id: .channel(id), accessHash: .personal(id * 10), title: "Channel \(id)", creationDate: 1,
                            info: .broadcast([]))
                    ])
                    if let pts { try tx.setPeerChatState(.channel(id), state: ChannelState(pts: pts)) }
                }
            }
        }

        func manager() -> AccountStateManager {
            AccountStateManager(
                accountPeerId: ChannelStateManagerTests.me, postbox: postbox, environment: server.environment,
                queue: scheduler.makeQueue(), configuration: .init(gapWait: 2), retryDelay: 2)
        }

        func storedIds(_ channel: Int64) throws -> [Int32] {
            try postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: .channel(channel), before: nil, count: 10_000).map(\.id.id)
            }.sorted()
        }

        func storedPts(_ channel: Int64) throws -> Int32? {
            try postbox.readTransactionSync { tx in (try tx.getPeerChatState(.channel(channel)) as? ChannelState)?.pts }
        }

        func commonPts() throws -> Int32? {
            try postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state?.pts }
        }

        /// Runs the manager's queue `seconds` of virtual time on, then waits for what it handed Postbox's writer (the
        /// group commit stores released batches off the manager's queue).
        func advance(by seconds: Double) {
            scheduler.advance(by: seconds)
            postbox.waitForWrites()
        }

        /// Starts a manager and lets it take the server's state.
        func started() -> AccountStateManager {
            let manager = manager()
            manager.start()
            advance(by: 0.01)
            return manager
        }

        func finish(_ manager: AccountStateManager) {
            manager.stop()
            advance(by: 0.01)
            directory.remove()
        }
    }

    @Test func aChannelGapWaitsThenItsDifferenceIsFetchedFromTheChannelsPts() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        harness.server.pipe.putNext(Self.newPost(11, pts: 11))
        harness.server.pipe.putNext(Self.newPost(11, pts: 11))  // a repeat is skipped
        harness.advance(by: 0.01)
        #expect(try harness.storedIds(Self.channelA) == [11])
        #expect(try harness.storedPts(Self.channelA) == 11)

        // 13 before 12: held for the wait, then the channel's difference brings 12 and 13.
        harness.server.pipe.putNext(Self.newPost(13, pts: 13))
        harness.advance(by: 1.9)
        #expect(try harness.storedIds(Self.channelA) == [11])
        #expect(harness.server.asked.isEmpty)
        harness.server.channelDifferences[Self.channelA] = [
            .channelDifference(
                .init(
                    final: true, pts: 13, newMessages: [Self.post(12), Self.post(13)], otherUpdates: [], chats: [],
                    users: []))
        ]
        harness.advance(by: 0.2)
        #expect(
            harness.server.asked == [[Self.channelA, Self.channelA * 10, 11]],
            "the stored access hash, the channel's pts")
        #expect(try harness.storedIds(Self.channelA) == [11, 12, 13])
        #expect(try harness.storedPts(Self.channelA) == 13)
        #expect(try harness.commonPts() == 10, "the common pts is untouched")
        #expect(manager.statistics.channelDifferences == 1 && manager.statistics.differences == 0)
        // The answer's timings are counted: its handling on the queue includes the write of its slice.
        #expect(manager.statistics.channelHandlingSeconds > 0)
        #expect(manager.statistics.channelRoundTripSeconds >= 0 && manager.statistics.channelQueueWaitSeconds >= 0)
        // The post keeps its views and the channel as its author.
        let stored = try harness.postbox.readTransactionSync { tx in
            try tx.getMessage(MessageId(peerId: .channel(Self.channelA), namespace: 0, id: 12))
        }
        #expect(stored?.author?.id == .channel(Self.channelA))
        #expect(stored?.attributes.compactMap { $0 as? ViewCountMessageAttribute }.first?.count == 10)
    }

    @Test func aDifferenceThatIsNotFinalIsAskedAgainAndFailuresWaitTheRetryDelay() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        harness.server.channelDifferences[Self.channelA] = [
            .channelDifference(
                .init(
                    final: false, pts: 12, newMessages: [Self.post(11), Self.post(12)], otherUpdates: [], chats: [],
                    users: [])),
            .channelDifference(
                .init(
                    final: true, pts: 14, newMessages: [Self.post(13)],
                    otherUpdates: [
                        .updateDeleteChannelMessages(
                            .init(channelId: Self.channelA, messages: [11], pts: 14, ptsCount: 1))
                    ],
                    chats: [], users: [])),
        ]
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateChannelTooLong(.init(channelId: Self.channelA)), date: 1)))
        harness.advance(by: 0.01)
        #expect(harness.server.asked.map { $0[2] } == [10, 12])
        #expect(
            manager.statistics.channelSlicesAskedAhead == 1 && manager.statistics.channelDifferences == 2,
            "the second slice is asked for as the first arrives: \(manager.statistics)")
        #expect(try harness.storedIds(Self.channelA) == [12, 13], "11 deleted by the difference's other update")
        #expect(try harness.storedPts(Self.channelA) == 14)

        // A failing server is asked again only after the retry delay.
        let answered = manager.statistics
        #expect(answered.channelHandlingSeconds > 0)
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateChannelTooLong(.init(channelId: Self.channelA)), date: 1)))
        harness.advance(by: 0.01)
        #expect(harness.server.asked.count == 3)
        harness.advance(by: 1.9)
        #expect(harness.server.asked.count == 3)
        harness.advance(by: 0.2)
        #expect(harness.server.asked.count == 4)
        // Failures are not answers: no round trip or handling is counted for them.
        #expect(manager.statistics.channelHandlingSeconds == answered.channelHandlingSeconds)
        #expect(manager.statistics.channelRoundTripSeconds == answered.channelRoundTripSeconds)
        #expect(harness.server.asked.last == [Self.channelA, Self.channelA * 10, 14])
        // Answered at last: the channel is ready again.
        harness.server.channelDifferences[Self.channelA] = [.channelDifferenceEmpty(.init(final: true, pts: 14))]
        harness.advance(by: 2.1)
        #expect(harness.server.asked.count == 5)
        harness.server.pipe.putNext(Self.newPost(15, pts: 15))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds(Self.channelA) == [12, 13, 15])
    }

    @Test func tooLongStoresTheNewestMessagesWithAHoleBelowAndTheDialogsState() throws {
        let harness = try Harness()
        try harness.postbox.transactionSync { tx in
            _ = try tx.addMessages(
                (1...5).map { id in
                    StoreMessage(
                        id: .id(MessageId(peerId: .channel(Self.channelA), namespace: 0, id: id)), timestamp: 100 + id,
                        flags: [.incoming], authorId: .channel(Self.channelA), text: "old \(id)")
                })
        }
        let manager = harness.started()
        defer { harness.finish(manager) }
        let dialog = Api.Dialog.dialog(
            .init(
                peer: .peerChannel(.init(channelId: Self.channelA)), topMessage: 100, readInboxMaxId: 98,
                readOutboxMaxId: 0,
                unreadCount: 2, unreadMentionsCount: 0, unreadReactionsCount: 0, unreadPollVotesCount: 0,
                notifySettings: .peerNotifySettings(.init()), pts: 500))
        harness.server.channelDifferences[Self.channelA] = [
            .channelDifferenceTooLong(
                .init(
                    final: true, dialog: dialog, messages: [Self.post(100), Self.post(99)],
                    chats: [Self.apiChannel(Self.channelA)], users: []))
        ]
        harness.server.pipe.putNext(Self.newPost(20, pts: 20))  // far ahead of pts 10: a gap
        harness.advance(by: 2.1)
        #expect(harness.server.asked == [[Self.channelA, Self.channelA * 10, 10]])
        #expect(try harness.storedPts(Self.channelA) == 500)
        #expect(try harness.storedIds(Self.channelA) == [1, 2, 3, 4, 5, 99, 100])
        let holes = try harness.postbox.readTransactionSync { tx in
            try tx.getHoles(peerId: .channel(Self.channelA), namespace: 0)
        }
        #expect(holes == [1...98], "everything below the newest messages is fetched again from history")
        let read = try harness.postbox.readTransactionSync { tx in
            try tx.getCombinedPeerReadState(.channel(Self.channelA))?.states[0]
        }
        #expect(read?.maxIncomingReadId == 98 && read?.count == 2)
        #expect(harness.server.asked.count == 1)
        #expect(try harness.storedIds(Self.channelA).contains(20) == false, "the held update was covered by the reset")
        #expect(try harness.commonPts() == 10)
    }

    @Test func twoChannelsGapsAreIndependent() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        harness.server.channelDifferences[Self.channelA] = [
            .channelDifference(
                .init(
                    final: true, pts: 12, newMessages: [Self.post(11), Self.post(12)], otherUpdates: [], chats: [],
                    users: []))
        ]
        harness.server.channelDifferences[Self.channelB] = [
            .channelDifference(
                .init(
                    final: true, pts: 102,
                    newMessages: [Self.post(101, channel: Self.channelB), Self.post(102, channel: Self.channelB)],
                    otherUpdates: [], chats: [], users: []))
        ]
        // A's gap at 0, B's a second later; B's missing update is the second arrival in each.
        harness.server.pipe.putNext(Self.newPost(12, pts: 12))
        harness.advance(by: 1)
        harness.server.pipe.putNext(Self.newPost(102, pts: 102, channel: Self.channelB))
        harness.advance(by: 0.5)
        #expect(harness.server.asked.isEmpty)
        // A's wait ends first: only A is asked.
        harness.advance(by: 0.6)
        #expect(harness.server.asked.map { $0[0] } == [Self.channelA])
        #expect(try harness.storedIds(Self.channelA) == [11, 12])
        #expect(try harness.storedIds(Self.channelB) == [])
        // Then B's.
        harness.advance(by: 1)
        #expect(harness.server.asked.map { $0[0] } == [Self.channelA, Self.channelB])
        #expect(try harness.storedIds(Self.channelB) == [101, 102])
        #expect(try harness.storedPts(Self.channelA) == 12 && harness.storedPts(Self.channelB) == 102)
        #expect(try harness.commonPts() == 10)
    }

    @Test func commonAndChannelUpdatesInOneContainerAreOneTransaction() throws {
        let harness = try Harness(channels: [:])
        let manager = harness.started()
        defer { harness.finish(manager) }
        let batchesBefore = manager.statistics.batches
        // A channel seen for the first time (its peer in the container): it starts from its update.
        let container = Api.Updates.updates(
            .init(
                updates: [
                    .updateNewMessage(
                        .init(
                            message: .message(
                                .init(
                                    id: 1, fromId: .peerUser(.init(userId: 2)), peerId: .peerUser(.init(userId: 2)),
                                    date: 1, message: "c")),
                            pts: 11, ptsCount: 1)),
                    .updateNewChannelMessage(.init(message: Self.post(7_000, channel: 900), pts: 7_000, ptsCount: 1)),
                ],
                users: [.user(.init(id: 2, accessHash: 22, firstName: "Friend"))], chats: [Self.apiChannel(900)],
                date: 5, seq: 0))
        harness.server.pipe.putNext(container)
        harness.advance(by: 0.01)
        #expect(manager.statistics.batches == batchesBefore + 1)
        #expect(try harness.storedIds(900) == [7_000])
        #expect(try harness.storedPts(900) == 7_000)
        #expect(try harness.commonPts() == 11)
        let channel =
            try harness.postbox.readTransactionSync { tx in try tx.getPeer(.channel(900)) } as? TelegramChannel
        #expect(channel?.accessHash == .personal(9_000) && channel?.info == .broadcast([]))
        // The chat list shows the channel.
        let chats = try harness.postbox.readTransactionSync { tx in try tx.chatListEntries(before: nil, count: 10) }
        #expect(chats.map(\.messageIndex.id.peerId).contains(.channel(900)))
    }

    @Test func readsViewsEditsAndDeletesOfAChannel() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        for id: Int32 in 11...13 { harness.server.pipe.putNext(Self.newPost(id, pts: id)) }
        harness.advance(by: 0.01)
        #expect(try harness.storedIds(Self.channelA) == [11, 12, 13])
        func read() throws -> PeerReadState? {
            try harness.postbox.readTransactionSync { tx in
                try tx.getCombinedPeerReadState(.channel(Self.channelA))?.states[0]
            }
        }
        func views(_ id: Int32) throws -> Int32? {
            try harness.postbox.readTransactionSync { tx in
                try tx.getMessage(MessageId(peerId: .channel(Self.channelA), namespace: 0, id: id))?
                    .attributes.compactMap { $0 as? ViewCountMessageAttribute }.first?.count
            }
        }
        // Read up to 12 with the server's count (the channel has more on the server than is stored here).
        harness.server.pipe.putNext(
            .updateShort(
                .init(
                    update: .updateReadChannelInbox(
                        .init(channelId: Self.channelA, maxId: 12, stillUnreadCount: 7, pts: 13)), date: 1)))
        harness.advance(by: 0.01)
        #expect(try read()?.maxIncomingReadId == 12 && read()?.count == 7)
        // A stale mark is ignored.
        harness.server.pipe.putNext(
            .updateShort(
                .init(
                    update: .updateReadChannelInbox(
                        .init(channelId: Self.channelA, maxId: 11, stillUnreadCount: 9, pts: 13)), date: 1)))
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateReadChannelOutbox(.init(channelId: Self.channelA, maxId: 13)), date: 1)))
        // Views rise, never fall.
        harness.server.pipe.putNext(
            .updateShort(
                .init(update: .updateChannelMessageViews(.init(channelId: Self.channelA, id: 12, views: 99)), date: 1)))
        harness.server.pipe.putNext(
            .updateShort(
                .init(update: .updateChannelMessageViews(.init(channelId: Self.channelA, id: 13, views: 2)), date: 1)))
        harness.advance(by: 0.01)
        #expect(try read()?.maxIncomingReadId == 12 && read()?.count == 7 && read()?.maxOutgoingReadId == 13)
        #expect(try views(12) == 99 && views(13) == 10)
        // An edit and a delete, each moving the channel's pts.
        let edited = Api.Message.message(
            .init(
                post: true, id: 11, peerId: .peerChannel(.init(channelId: Self.channelA)), date: 111, message: "edited",
                editDate: 200))
        harness.server.pipe.putNext(
            .updateShort(
                .init(update: .updateEditChannelMessage(.init(message: edited, pts: 14, ptsCount: 1)), date: 1)))
        harness.server.pipe.putNext(
            .updateShort(
                .init(
                    update: .updateDeleteChannelMessages(
                        .init(channelId: Self.channelA, messages: [13, 77], pts: 15, ptsCount: 1)), date: 1)))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds(Self.channelA) == [11, 12])
        let text = try harness.postbox.readTransactionSync { tx in
            try tx.getMessage(MessageId(peerId: .channel(Self.channelA), namespace: 0, id: 11))?.text
        }
        #expect(text == "edited")
        #expect(try harness.storedPts(Self.channelA) == 15)
        #expect(try harness.commonPts() == 10)
    }

    @Test func aChannelWithoutAnAccessHashIsNotAskedAndItsHeldUpdatesAreDropped() throws {
        let harness = try Harness(channels: [:])
        try harness.postbox.transactionSync { tx in
            try tx.setPeerChatState(.channel(Self.channelA), state: ChannelState(pts: 10))
        }
        let manager = harness.started()
        defer { harness.finish(manager) }
        harness.server.pipe.putNext(Self.newPost(13, pts: 13))
        harness.advance(by: 2.1)
        #expect(harness.server.asked.isEmpty)
        #expect(manager.statistics.channelDifferences == 0)
        #expect(try harness.storedIds(Self.channelA) == [])
        // Ready again: the next update in order applies.
        harness.server.pipe.putNext(Self.newPost(11, pts: 11))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds(Self.channelA) == [11])
    }
}

/// `Environment.network`'s `getChannelDifference` over any `AccountNetworking`: the call Telegram-iOS makes for an
/// ordinary account (not forced, no filter, the channel's pts, 100 at most), and its answer passed through.
@Suite struct ChannelDifferenceCallTests {
    /// Awaited, not waited on a semaphore: blocking a test thread starved the task the request runs in when the
    /// whole suite ran at once (a 10 s timeout hit under load).
    @Test(.timeLimit(.minutes(1))) func getChannelDifferenceAsksAsTelegramIOSDoes() async throws {
        // Answers `updates.getChannelDifference` with an empty difference one past the pts asked.
        let network = ScriptedNetwork { function in
            (function as? Api.functions.updates.getChannelDifference).map {
                Api.updates.ChannelDifference.channelDifferenceEmpty(.init(final: true, pts: $0.pts + 1))
            }
        }
        let environment = AccountStateManager.Environment.network(network)
        let getChannelDifference = try #require(environment.getChannelDifference)
        let answer = try await getChannelDifference(.inputChannel(.init(channelId: 700, accessHash: 7_000)), 41).get()
        guard case .channelDifferenceEmpty(let empty) = answer else {
            Issue.record("expected the network's answer, got \(answer)")
            return
        }
        #expect(empty.pts == 42)
        let call = try #require(network.calls.first as? Api.functions.updates.getChannelDifference)
        #expect(!call.force && call.pts == 41 && call.limit == 100)
        guard case .inputChannel(let channel) = call.channel, case .channelMessagesFilterEmpty = call.filter else {
            Issue.record("expected inputChannel and no filter, got \(call.channel), \(call.filter)")
            return
        }
        #expect(channel.channelId == 700 && channel.accessHash == 7_000)
    }
}
