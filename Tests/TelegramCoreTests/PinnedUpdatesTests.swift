import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// Pins reach Postbox through the state manager on virtual time (the scripted server of `ChannelStateManagerTests`):
/// `updatePinnedChannelMessages` in the channel's pts and `updatePinnedMessages` in the common pts tag the stored
/// message `.pinned` — the answer to `messages.updatePinnedMessage`, the pin first, then its service message — and an
/// unpin removes the tag; the newest pinned message is what the pinned bar shows.
@Suite struct PinnedUpdatesTests {
    typealias Harness = ChannelStateManagerTests.Harness
    static let channel = ChannelStateManagerTests.channelA
    static let friend: Int64 = 2

    static func updates(_ updates: [Api.Update]) -> Api.Updates {
        .updates(.init(updates: updates, users: [], chats: [], date: 200, seq: 0))
    }

    /// The service message `messageActionPinMessage` naming `pinned`, in `peer`.
    static func pinService(_ id: Int32, pinned: Int32, peer: Api.Peer) -> Api.Message {
        .messageService(
            .init(
                id: id, fromId: .peerUser(.init(userId: friend)), peerId: peer,
                replyTo: .messageReplyHeader(.init(replyToMsgId: pinned)), date: 150, action: .messageActionPinMessage))
    }

    static func pinnedIds(_ harness: Harness, _ peerId: PeerId) throws -> [Int32] {
        try harness.postbox.readTransactionSync { tx in try PinnedMessages.all(in: peerId, transaction: tx) }.map(\.id)
    }

    @Test func aChannelPinTagsTheMessageInTheChannelsPtsAndAnUnpinUntagsIt() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        let peer = Api.Peer.peerChannel(.init(channelId: Self.channel))
        harness.server.pipe.putNext(ChannelStateManagerTests.newPost(11, pts: 11))
        harness.server.pipe.putNext(ChannelStateManagerTests.newPost(12, pts: 12))
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .channel(Self.channel)).isEmpty)

        harness.server.pipe.putNext(
            Self.updates([
                .updatePinnedChannelMessages(
                    .init(pinned: true, channelId: Self.channel, messages: [11], pts: 13, ptsCount: 1)),
                .updateNewChannelMessage(
                    .init(message: Self.pinService(13, pinned: 11, peer: peer), pts: 14, ptsCount: 1)),
            ]))
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .channel(Self.channel)) == [11])
        #expect(try harness.storedPts(Self.channel) == 14)
        #expect(try harness.commonPts() == 10, "the common pts is untouched")
        let (newest, service) = try harness.postbox.readTransactionSync { tx in
            (
                try PinnedMessages.newest(in: .channel(Self.channel), transaction: tx),
                try tx.getMessage(MessageId(peerId: .channel(Self.channel), namespace: 0, id: 13))
            )
        }
        #expect(newest?.text == "p11")
        let reply = try #require(service?.attributes.compactMap { $0 as? ReplyMessageAttribute }.first)
        #expect(reply.messageId.id == 11, "the service message names the pinned message")
        #expect(service?.media.compactMap { ($0 as? TelegramMediaAction)?.action }.first == .pinnedMessageUpdated)

        // Pinning 12 keeps 11 pinned (Telegram keeps several); the newest is 12. An unpin arriving before a missing
        // pts waits for it.
        harness.server.pipe.putNext(
            Self.updates([
                .updatePinnedChannelMessages(
                    .init(pinned: false, channelId: Self.channel, messages: [12], pts: 16, ptsCount: 1))
            ]))
        harness.advance(by: 0.5)
        #expect(try Self.pinnedIds(harness, .channel(Self.channel)) == [11], "pts 15 is missing")
        harness.server.pipe.putNext(
            Self.updates([
                .updatePinnedChannelMessages(
                    .init(pinned: true, channelId: Self.channel, messages: [12], pts: 15, ptsCount: 1))
            ]))
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .channel(Self.channel)) == [11], "12 pinned, then unpinned in order")
        #expect(try harness.storedPts(Self.channel) == 16)

        harness.server.pipe.putNext(
            Self.updates([
                .updatePinnedChannelMessages(
                    .init(pinned: false, channelId: Self.channel, messages: [11, 99], pts: 17, ptsCount: 1))
            ]))
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .channel(Self.channel)).isEmpty, "unpin all; 99 is not stored")
        #expect(try harness.storedPts(Self.channel) == 17)
    }

    @Test func aPrivateChatPinMovesTheCommonPts() throws {
        let harness = try Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        let peer = Api.Peer.peerUser(.init(userId: Self.friend))
        let message = Api.Message.message(
            .init(id: 5, fromId: peer, peerId: peer, date: 120, message: "hello"))
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateNewMessage(.init(message: message, pts: 11, ptsCount: 1)), date: 120)))
        harness.server.pipe.putNext(
            Self.updates([
                .updatePinnedMessages(.init(pinned: true, peer: peer, messages: [5], pts: 12, ptsCount: 1)),
                .updateNewMessage(.init(message: Self.pinService(6, pinned: 5, peer: peer), pts: 13, ptsCount: 1)),
            ]))
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .user(Self.friend)) == [5])
        #expect(try harness.commonPts() == 13)
        harness.server.pipe.putNext(
            Self.updates([.updatePinnedMessages(.init(pinned: false, peer: peer, messages: [5], pts: 14, ptsCount: 1))])
        )
        harness.advance(by: 0.01)
        #expect(try Self.pinnedIds(harness, .user(Self.friend)).isEmpty)
        #expect(try harness.commonPts() == 14)
    }
}
