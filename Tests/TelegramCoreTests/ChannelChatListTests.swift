import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SwiftSignalKit
import SyncCore
import TLRuntime
import TelegramApi
@testable import TelegramCore
import Testing

/// Channels in the chat list without a server that serves them: a `messages.getDialogs` page answered by a scripted
/// network stores the channel (kind, access hash), lists it, seeds its `ChannelState` from the dialog's pts only when
/// none is stored, and names it with `inputPeerChannel` for its history holes.
@Suite struct ChannelChatListTests {
    static let channelId: Int64 = 700

    static func page(pts: Int32) -> Api.messages.Dialogs {
        .dialogs(
            .init(
                dialogs: [
                    .dialog(
                        .init(
                            peer: .peerChannel(.init(channelId: channelId)), topMessage: 50, readInboxMaxId: 45,
                            readOutboxMaxId: 0, unreadCount: 5, unreadMentionsCount: 0, unreadReactionsCount: 0,
                            unreadPollVotesCount: 0, notifySettings: .peerNotifySettings(.init()), pts: pts))
                ],
                messages: [
                    .message(.init(post: true, id: 50, peerId: .peerChannel(.init(channelId: channelId)), date: 500, message: "top", views: 3))
                ],
                chats: [
                    .channel(.init(broadcast: true, id: channelId, accessHash: 7_000, title: "Tin tức", photo: .chatPhotoEmpty, date: 1))
                ],
                users: []))
    }

    @Test(.timeLimit(.minutes(1))) func aChannelDialogIsListedAndSeedsItsStateOnce() async throws {
        let directory = TemporaryDirectory(prefix: "channel-chat-list")
        defer { directory.remove() }
        registerTelegramCoreTypes()
        let postbox = try Postbox.open(
            accountPath: directory.path + "/account-1",
            encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
            globalMessageIds: Namespaces.globalMessageIds)
        let me = PeerId.user(1)
        let channel = PeerId.channel(Self.channelId)
        let first = Self.page(pts: 321)
        let network = ScriptedNetwork { $0 is Api.functions.messages.getDialogs ? first : nil }
        let fetcher = ChatListFetcher(accountPeerId: me, postbox: postbox, network: network)
        #expect(try await fetcher.fetchNextPage() == 1)

        try postbox.readTransactionSync { tx in
            let stored = try #require(try tx.getPeer(channel) as? TelegramChannel)
            #expect(stored.title == "Tin tức" && stored.accessHash == .personal(7_000) && stored.info.isBroadcast)
            #expect(try tx.chatListEntries(before: nil, count: 10).map(\.messageIndex.id) == [MessageId(peerId: channel, namespace: 0, id: 50)])
            #expect((try tx.getPeerChatState(channel) as? ChannelState)?.pts == 321)
            #expect(try tx.getHoles(peerId: channel, namespace: 0) == [1...49])
            #expect(try tx.getCombinedPeerReadState(channel)?.states[0]?.count == 5)
            let input = try apiInputPeer(channel, accountPeerId: me, transaction: tx)
            guard case .inputPeerChannel(let value)? = input else {
                Issue.record("expected inputPeerChannel, got \(String(describing: input))")
                return
            }
            #expect(value.channelId == Self.channelId && value.accessHash == 7_000)
        }

        // The chat list again, the dialog further on: the state the update machinery keeps is not moved back or on.
        let later = Self.page(pts: 999)
        network.script { $0 is Api.functions.messages.getDialogs ? later : nil }
        let again = ChatListFetcher(accountPeerId: me, postbox: postbox, network: network)
        #expect(try await again.fetchNextPage() == 1)
        #expect(network.calls.count == 2)
        #expect(try postbox.readTransactionSync { tx in (try tx.getPeerChatState(channel) as? ChannelState)?.pts } == 321)
    }
}
