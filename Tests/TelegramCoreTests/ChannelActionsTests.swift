import AccountNetworking
import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import Testing

/// TelegramCore's group and channel actions against tg-server (on the loopback): Ann creates a public broadcast
/// channel, Ben joins it by its username, Ann lists, promotes, demotes, bans and lets him back, renames it; a basic
/// group and a supergroup are created with members, listed, and left (core.telegram.org "Channels, supergroups,
/// gigagroups and basic groups"). Each action stores what the server returned at once and applies its service
/// message through the chat's own sequence.
@Suite(.serialized) struct ChannelActionsTests {
    typealias Support = AccountIntegrationTests

    static func actions(_ account: Account, in peer: PeerId) throws -> [TelegramMediaActionType] {
        try Support.storedMessages(account, with: peer).sorted { $0.index < $1.index }.compactMap { message in
            (message.media.first as? TelegramMediaAction)?.action
        }
    }

    static func channel(_ account: Account, _ peer: PeerId) throws -> TelegramChannel? {
        try account.postbox.readTransactionSync { tx in try tx.getPeer(peer) as? TelegramChannel }
    }

    @Test func aPublicChannelIsCreatedJoinedAdministeredAndBanned() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996623051", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996623052", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }

        // Ann's broadcast channel, public as @ann_news: stored at once, its creation message applied after.
        let news = try await ann.createChannel(title: "Ann's news", about: "Daily", kind: .broadcast)
        #expect(news.namespace == Namespaces.Peer.cloudChannel)
        try await ann.setChannelUsername("ann_news", of: news)
        let created = try #require(try Self.channel(ann, news))
        #expect(created.title == "Ann's news" && created.username == "ann_news" && created.info.isBroadcast)
        #expect(created.flags.contains(.isCreator) && created.participationStatus == .member)
        try await Support.wait("Ann's channel has its creation message") {
            try Self.actions(ann, in: news) == [.groupCreated(title: "Ann's news")]
        }

        // Ben joins by the username; a second join is the server's USER_ALREADY_PARTICIPANT.
        #expect(try await ben.joinChannel(username: "ann_news") == news)
        #expect(try Self.channel(ben, news)?.participationStatus == .member)
        // The join brought the channel's dialog: nothing unread for Ben, the newest message stored with a hole below
        // it, and the channel's pts where its own update sequence starts.
        try ben.postbox.readTransactionSync { tx in
            let read = try tx.getCombinedPeerReadState(news)?.states[Namespaces.Message.cloud]
            #expect(read?.count == 0 && (read?.maxIncomingReadId ?? 0) >= 1, "\(String(describing: read))")
            #expect(try tx.topMessageIndex(peerId: news) != nil)
            #expect((try tx.getPeerChatState(news) as? ChannelState)?.pts != nil)
        }
        await #expect(throws: PeerActionError.server("USER_ALREADY_PARTICIPANT")) {
            try await ben.joinChannel(news)
        }
        let unknown = await #expect(throws: PeerActionError.self) {
            try await ben.joinChannel(username: "nobody_here")
        }
        guard case .notFound? = unknown else {
            Issue.record("expected notFound, got \(String(describing: unknown))")
            throw CancellationError()
        }

        // Ann posts; Ben's running account stores the post with its views, and counts himself once as a viewer.
        let newsPeer = try #require(try Self.channel(ann, news)?.apiInputPeer)
        _ = try await ann.network.request(
            Api.functions.messages.sendMessage(peer: newsPeer, message: "Rain in Hanoi", randomId: 77))
        var postId: MessageId?
        try await Support.wait("Ben stores Ann's post") {
            postId = try Support.storedMessages(ben, with: news).first { $0.text == "Rain in Hanoi" }?.id
            return postId != nil
        }
        let post = try #require(postId)
        func views() throws -> Int32? {
            try ben.postbox.readTransactionSync { tx in
                try tx.getMessage(post)?.attributes.compactMap { $0 as? ViewCountMessageAttribute }.first?.count
            }
        }
        let before = try #require(try views())
        try await ben.viewChannelPosts([post])
        #expect(try views() == before + 1)
        try await ben.viewChannelPosts([post])
        #expect(try views() == before + 1, "a viewer is counted once")

        // Polled, as when the chat is opened: one getChannelDifference from the stored pts, which brings nothing new.
        let asked = ben.stateManager.statistics.channelDifferences
        let storedBefore = try Support.storedMessages(ben, with: news).count
        await ben.stateManager.pollChannel(news.id.rawValue)
        try await Support.wait("the poll's channel difference") {
            ben.stateManager.statistics.channelDifferences == asked + 1
        }
        #expect(try Support.storedMessages(ben, with: news).count == storedBefore)

        // Members: Ann (creator) and Ben; Ben, no admin, may not list a broadcast channel's members.
        let members = try await ann.members(of: news)
        #expect(members.total == 2)
        #expect(Set(members.members.map(\.peerId)) == [ann.peerId, ben.peerId])
        #expect(members.members.first { $0.peerId == ann.peerId }?.role == .creator)
        #expect(members.members.first { $0.peerId == ben.peerId }?.role == .member)
        let listing = await #expect(throws: PeerActionError.self) { try await ben.members(of: news) }
        #expect(listing?.serverError == "CHAT_ADMIN_REQUIRED")

        // Ben made an admin who may post and edit, listed so; he cannot give himself more (no add_admins).
        try await ann.setAdmin(ben.peerId, in: news, rights: [.canPostMessages, .canEditMessages], rank: "editor")
        let admins = try await ann.members(of: news, filter: .admins)
        #expect(
            admins.members.first { $0.peerId == ben.peerId }?.role
                == .admin([.canPostMessages, .canEditMessages], rank: "editor"))
        let promote = await #expect(throws: PeerActionError.self) {
            try await ben.setAdmin(ben.peerId, in: news, rights: [.canPostMessages, .canBanUsers])
        }
        #expect(promote?.serverError == "CHAT_ADMIN_REQUIRED")
        try await ann.setAdmin(ben.peerId, in: news, rights: [])
        #expect(try await ann.members(of: news, filter: .admins).members.map(\.peerId) == [ann.peerId])

        // Banned: listed among the banned, and may not come back by himself until he is let in again.
        try await ann.ban(ben.peerId, in: news)
        let banned = try await ann.members(of: news, filter: .banned)
        guard case .banned(let rights)? = banned.members.first(where: { $0.peerId == ben.peerId })?.role else {
            Issue.record("Ben is not listed as banned: \(banned)")
            throw CancellationError()
        }
        #expect(rights.flags.contains(.banReadMessages) && rights.untilDate == 0)
        #expect(try await ann.members(of: news).total == 1)
        let rejoin = await #expect(throws: PeerActionError.self) { try await ben.joinChannel(news) }
        #expect(rejoin?.serverError == "CHANNEL_PRIVATE")
        try await ann.setBannedRights(ben.peerId, in: news, flags: [])
        try await ben.joinChannel(news)
        #expect(try await ann.members(of: news).total == 2)

        // Kicked: removed, free to join again; then he leaves by himself.
        try await ann.kick(ben.peerId, from: news)
        #expect(try await ann.members(of: news).total == 1)
        try await ben.joinChannel(news)
        try await ben.leave(news)
        #expect(try await ann.members(of: news).total == 1)

        // Renamed: the stored title changes at once, the service message follows.
        try await ann.rename(news, title: "Ann's daily")
        #expect(try Self.channel(ann, news)?.title == "Ann's daily")
        try await Support.wait("the rename's service message") {
            try Self.actions(ann, in: news).last == .titleUpdated(title: "Ann's daily")
        }
        try await world.close([ann, ben])
    }

    /// The creation's `Updates` carry the channel without its username; a state manager slow to apply them (a loaded
    /// machine) must not take the username away once it is set (it did: the username was written first, then the
    /// older channel over it).
    @Test func aUsernameSetWhileTheCreationIsStillQueuedStays() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996623055", name: "Ann")
        ann.start()
        try await Support.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        // The state manager's queue is busy for 1.5 s: the creation's Updates wait behind it.
        ann.stateManager.queue.async { Thread.sleep(forTimeInterval: 1.5) }
        let news = try await ann.createChannel(title: "Slow news", kind: .broadcast)
        try await ann.setChannelUsername("slow_news", of: news)
        await ann.stateManager.handledSoFar()
        #expect(try Self.channel(ann, news)?.username == "slow_news")
        try await world.close([ann])
    }

    @Test func groupsAreCreatedWithMembersListedAndLeft() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996623061", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996623062", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        try await Support.introduce(phone: "9996623062", name: "Ben", to: ann)

        // A basic group with Ben: both accounts store its creation message (Ben's pushed).
        let trip = try await ann.createGroup(title: "Trip", users: [ben.peerId])
        #expect(trip.namespace == Namespaces.Peer.cloudGroup)
        let group = try ann.postbox.readTransactionSync { tx in try tx.getPeer(trip) as? TelegramGroup }
        #expect(group?.title == "Trip")
        for account in [ann, ben] {
            try await Support.wait("the group's creation message") {
                try Self.actions(account, in: trip).first == .groupCreated(title: "Trip")
            }
        }
        let listed = try await ann.members(of: trip)
        #expect(listed.total == 2)
        #expect(listed.members.first { $0.peerId == ann.peerId }?.role == .creator)
        #expect(listed.members.first { $0.peerId == ben.peerId }?.role == .member)
        await #expect(throws: PeerActionError.self) { try await ann.createGroup(title: " ", users: [ben.peerId]) }
        try await ann.rename(trip, title: "Road trip")
        try await ben.leave(trip)
        try await Support.wait("Ben's leaving, at Ann's") {
            try Self.actions(ann, in: trip).contains(.removedMembers(peerIds: [ben.peerId]))
        }
        #expect(try await ann.members(of: trip).members.map(\.peerId) == [ann.peerId])

        // A supergroup Ben is invited to: Ben's account hears of it and stores it; Ben, a member, may not ban.
        let builders = try await ann.createChannel(title: "Builders", kind: .supergroup)
        #expect(try Self.channel(ann, builders)?.info.isBroadcast == false)
        try await ann.invite([ben.peerId], to: builders)
        await #expect(throws: PeerActionError.server("USER_ALREADY_PARTICIPANT")) {
            try await ann.invite([ben.peerId], to: builders)
        }
        try await Support.wait("Ben's account stores the supergroup") { try Self.channel(ben, builders) != nil }
        try await Support.wait("the invitation's service message") {
            try Self.actions(ann, in: builders).contains(.addedMembers(peerIds: [ben.peerId]))
        }
        let ban = await #expect(throws: PeerActionError.self) { try await ben.ban(ann.peerId, in: builders) }
        #expect(ban?.serverError == "CHAT_ADMIN_REQUIRED")
        #expect(try await ben.members(of: builders).total == 2)
        try await world.close([ann, ben])
    }
}
