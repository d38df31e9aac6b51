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
import UpdateSequencing

/// `updateWebPage` and `updateChannelWebPage` (core.telegram.org "Link previews") through the state manager on virtual
/// time: a pts update (the account's, or the channel's own) that replaces the shared page every message showing it as
/// `webPagePending` refers to.
@Suite struct WebPageUpdateTests {
    @Test func aPendingPreviewIsFilledInByUpdateWebPage() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let friend = AccountStateManagerTests.friend
        let ids = [5, 6].map { MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: $0) }
        let pending = telegramMedia(
            .messageMediaWebPage(.init(webpage: .webPagePending(.init(id: 88, url: "http://example.com/a", date: 90)))))
        try harness.postbox.transactionSync { tx in
            _ = try tx.addMessages(
                ids.map { id in
                    StoreMessage(
                        id: .id(id), timestamp: 100, flags: [.incoming], authorId: friend,
                        text: "http://example.com/a", attributes: [], media: pending)
                })
        }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        let page = Api.WebPage.webPage(
            .init(
                id: 88, url: "http://example.com/a", displayUrl: "example.com/a", hash: 3, siteName: "Example",
                title: "Title", description: "About"))
        harness.server.pipe.putNext(
            .updates(
                .init(
                    updates: [.updateWebPage(.init(webpage: page, pts: 11, ptsCount: 1))], users: [], chats: [],
                    date: 200, seq: 0)))
        harness.advance(by: 0.01)
        for id in ids {
            let stored = try #require(
                try harness.postbox.readTransactionSync { try $0.getMessage(id) }?.media.first as? TelegramMediaWebpage)
            #expect(!stored.isPending && stored.title == "Title" && stored.siteName == "Example")
        }
        #expect(try harness.storedState()?.pts == 11)
        #expect(manager.statistics.unhandledUpdates.isEmpty, "\(manager.statistics.unhandledUpdates)")
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A channel post's page comes as `updateChannelWebPage` in the channel's pts sequence: the post gets the page,
    /// the channel's pts moves, the account's does not.
    @Test func aChannelPostsPreviewIsFilledInByUpdateChannelWebPage() throws {
        let harness = try ChannelStateManagerTests.Harness()
        let manager = harness.started()
        defer { harness.finish(manager) }
        let channel = ChannelStateManagerTests.channelA
        let pending = Api.MessageMedia.messageMediaWebPage(
            .init(webpage: .webPagePending(.init(id: 89, url: "http://example.com/b", date: 90))))
        let post = Api.Message.message(
            .init(
                post: true, id: 11, peerId: .peerChannel(.init(channelId: channel)), date: 111,
                message: "http://example.com/b", media: pending))
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateNewChannelMessage(.init(message: post, pts: 11, ptsCount: 1)), date: 111))
        )
        harness.advance(by: 0.01)
        let page = Api.WebPage.webPage(
            .init(
                id: 89, url: "http://example.com/b", displayUrl: "example.com/b", hash: 4, siteName: "Example",
                title: "Channel page", description: "About"))
        harness.server.pipe.putNext(
            .updates(
                .init(
                    updates: [.updateChannelWebPage(.init(channelId: channel, webpage: page, pts: 12, ptsCount: 1))],
                    users: [], chats: [], date: 200, seq: 0)))
        harness.advance(by: 0.01)
        let id = MessageId(peerId: .channel(channel), namespace: Namespaces.Message.cloud, id: 11)
        let stored = try #require(
            try harness.postbox.readTransactionSync { try $0.getMessage(id) }?.media.first as? TelegramMediaWebpage)
        #expect(!stored.isPending && stored.title == "Channel page")
        #expect(try harness.storedPts(channel) == 12)
        #expect(try harness.commonPts() == 10, "the account's pts is untouched")
        #expect(manager.statistics.unhandledUpdates.isEmpty, "\(manager.statistics.unhandledUpdates)")
    }
}
