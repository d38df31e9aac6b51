import AccountNetworking
import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing
import UpdateSequencing

/// Supergroups end to end: TelegramCore accounts against tg-server's channels (on the loopback). Ann makes a
/// supergroup and invites Ben; Ben's running account stores the channel and its posts as they are pushed, each under
/// the channel's own ids, and keeps the channel's own pts; then, offline while Ann posts 250 more, it comes back, hears
/// of the channel in `updates.getDifference` (`updateChannelTooLong`) and catches up through
/// `updates.getChannelDifference` in slices of 100 — each post once, in order — while the account's common pts is
/// untouched by any of it (core.telegram.org "Working with updates", channels); and Ben writes in it through his
/// pending queue.
@Suite(.serialized) struct ChannelEndToEndTests {
    typealias Support = AccountIntegrationTests

    @Test func aSupergroupsPostsArriveLiveAndAfterAnAbsence() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996623041", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996623042", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }

        // Ann makes the supergroup and invites Ben.
        let created = try await ann.network.request(
            Api.functions.channels.createChannel(
                megagroup: true, title: "Builders", about: "", geoPoint: nil, address: nil, ttlPeriod: nil))
        guard case .updates(let updates) = created, case .channel(let channel)? = updates.chats.first,
            let annHash = channel.accessHash
        else { throw ChannelTestError.unexpected("\(created)") }
        let annChannel = Api.InputChannel.inputChannel(.init(channelId: channel.id, accessHash: annHash))
        let benUser = try await Support.find(phone: "9996623042") { try await ann.network.request($0) }
        guard case .inputPeerUser(let benPeer) = benUser else { throw ChannelTestError.unexpected("\(benUser)") }
        _ = try await ann.network.request(
            Api.functions.channels.inviteToChannel(
                channel: annChannel,
                users: [.inputUser(.init(userId: benPeer.userId, accessHash: benPeer.accessHash))]))
        let channelPeer = PeerId(namespace: Namespaces.Peer.cloudChannel, id: PeerId.Id(rawValue: channel.id))
        let toChannel = Api.InputPeer.inputPeerChannel(.init(channelId: channel.id, accessHash: annHash))
        func post(_ text: String, _ randomId: Int64) async throws {
            _ = try await ann.network.request(
                Api.functions.messages.sendMessage(peer: toChannel, message: text, randomId: randomId))
        }
        func posts(at account: Account) throws -> [String] {
            try Support.storedMessages(account, with: channelPeer).sorted { $0.index < $1.index }.map(\.text)
                .filter { $0.hasPrefix("post ") }
        }
        let commonPts = { (account: Account) in
            try account.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state?.pts }
        }

        // Live: pushed to Ben's running account, stored under the channel with the channel's own ids.
        let benPtsBefore = try commonPts(ben)
        for index in 1...3 { try await post("post \(index)", Int64(index)) }
        try await Support.wait(
            "Ben stores the live posts", explain: { "Ben has \((try? posts(at: ben)) ?? [])" }
        ) { try posts(at: ben) == ["post 1", "post 2", "post 3"] }
        let stored = try #require(try ben.postbox.readTransactionSync { tx in try tx.getPeer(channelPeer) })
        #expect((stored as? TelegramChannel)?.title == "Builders")
        let ids = try Support.storedMessages(ben, with: channelPeer).filter { $0.text.hasPrefix("post ") }.map(\.id.id)
        #expect(ids.sorted() == Array(ids.sorted().first!...(ids.sorted().first! + 2)), "one id sequence per channel")
        #expect(try commonPts(ben) == benPtsBefore, "channel updates leave the account's pts alone")

        // Away for 250 posts: back, Ben catches up through the channel's difference, each post once and in order.
        await ben.shutdown()
        for index in 4...253 { try await post("post \(index)", Int64(index)) }
        let channelDifferences = ben.stateManager.statistics.channelDifferences
        ben.start()
        let expected = (1...253).map { "post \($0)" }
        try await Support.wait(
            "Ben catches up on the channel", timeout: 60,
            explain: { "Ben has \((try? posts(at: ben).count) ?? 0) posts, \(ben.stateManager.statistics)" }
        ) { try posts(at: ben).count >= expected.count }
        #expect(try posts(at: ben) == expected)
        #expect(try commonPts(ben) == benPtsBefore)
        // 250 posts in slices of 100: three channel differences at least (the last one `final`).
        #expect(
            ben.stateManager.statistics.channelDifferences - channelDifferences >= 3, "\(ben.stateManager.statistics)")
        // And live again afterwards.
        try await post("post 254", 254)
        try await Support.wait("the post after the catch-up") { try posts(at: ben).last == "post 254" }

        // Ben writes in the supergroup through his pending queue: sent once, his local copy replaced by the server's,
        // and Ann's account has it.
        _ = try ben.enqueue([EnqueueMessage(text: "hello from Ben")], to: channelPeer)
        try await Support.wait(
            "Ben's message sent", explain: { "Ben has \((try? posts(at: ben).suffix(2)) ?? [])" }
        ) {
            try ben.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty
                && Support.storedMessages(ben, with: channelPeer).contains {
                    $0.text == "hello from Ben" && $0.id.namespace == Namespaces.Message.cloud
                }
        }
        #expect(try Support.storedMessages(ben, with: channelPeer).filter { $0.text == "hello from Ben" }.count == 1)
        try await Support.wait("Ann has Ben's message") {
            try Support.storedMessages(ann, with: channelPeer).contains { $0.text == "hello from Ben" }
        }
        try await world.close([ann, ben])
    }

    /// Ann and Ben (phones `benPhone` − 1 and `benPhone`) started and caught up; Ann makes a supergroup over raw
    /// calls and invites Ben. Returns both, the channel's peer and Ann's `InputPeer` for it.
    static func supergroupOfAnnAndBen(
        _ world: Support.World, benPhone: String, title: String
    ) async throws -> (ann: Account, ben: Account, channel: PeerId, toChannel: Api.InputPeer) {
        let annPhone = String(try #require(Int64(benPhone)) - 1)
        let ann = try await Support.signUp(world, phone: annPhone, name: "Ann")
        let ben = try await Support.signUp(world, phone: benPhone, name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        let created = try await ann.network.request(
            Api.functions.channels.createChannel(megagroup: true, title: title, about: ""))
        guard case .updates(let updates) = created, case .channel(let channel)? = updates.chats.first,
            let annHash = channel.accessHash
        else { throw ChannelTestError.unexpected("\(created)") }
        let benUser = try await Support.find(phone: benPhone) { try await ann.network.request($0) }
        guard case .inputPeerUser(let benPeer) = benUser else { throw ChannelTestError.unexpected("\(benUser)") }
        _ = try await ann.network.request(
            Api.functions.channels.inviteToChannel(
                channel: .inputChannel(.init(channelId: channel.id, accessHash: annHash)),
                users: [.inputUser(.init(userId: benPeer.userId, accessHash: benPeer.accessHash))]))
        return (
            ann, ben, PeerId.channel(channel.id),
            .inputPeerChannel(.init(channelId: channel.id, accessHash: annHash))
        )
    }

    /// A post dated in an earlier second than the one the account last heard from the server (its date is taken
    /// before its write is queued, so it can be stored after a difference that already answered a later date) is named
    /// by no later `updates.getDifference`, which finds channels by date: the account finds it through the check after
    /// its catch-up, the channel's pts in `messages.getPeerDialogs` ahead of the stored one (`ChannelPtsCheck`).
    @Test func aPostDatedBeforeTheAccountsDateIsFoundByThePts() async throws {
        let clock = LockedValue(Date().timeIntervalSince1970)
        let world = try await Support.World(serverClock: { clock.withLock { $0 } })
        let (ann, ben, channelPeer, toChannel) = try await Self.supergroupOfAnnAndBen(
            world, benPhone: "9996623044", title: "Late")
        func texts() throws -> [String] { try Support.storedMessages(ben, with: channelPeer).map(\.text) }
        _ = try await ann.network.request(
            Api.functions.messages.sendMessage(peer: toChannel, message: "on time", randomId: 1))
        try await Support.wait("Ben's first post") { try texts().contains("on time") }
        await ben.shutdown()

        // Dated a minute before what Ben last heard, stored now.
        clock.withLock { $0 -= 60 }
        _ = try await ann.network.request(
            Api.functions.messages.sendMessage(peer: toChannel, message: "dated earlier", randomId: 2))
        clock.withLock { $0 += 60 }
        ben.start()
        try await Support.wait(
            "Ben finds the earlier-dated post", timeout: 15,
            explain: { "Ben has \((try? texts()) ?? []), \(ben.stateManager.statistics)" }
        ) { try texts().contains("dated earlier") }
        #expect(ben.stateManager.statistics.channelsFoundBehind == 1)
        #expect(try texts().filter { $0 == "dated earlier" }.count == 1)
        try await world.close([ann, ben])
    }

    /// A post made in the very second the account last heard from the server, while it is away, on a server whose
    /// clock stands still (every date is that second): `updates.getDifference` names the channels changed from the
    /// account's `date` on, that second included, and the pts check after the catch-up finds it too, so it is caught
    /// up once at the next start.
    @Test func aPostInTheSecondTheAccountLastHeardOfIsCaughtUp() async throws {
        let second = Date().timeIntervalSince1970.rounded(.down) + 0.5
        let world = try await Support.World(serverClock: { second })
        let (ann, ben, channelPeer, toChannel) = try await Self.supergroupOfAnnAndBen(
            world, benPhone: "9996623046", title: "Same second")
        func texts() throws -> [String] { try Support.storedMessages(ben, with: channelPeer).map(\.text) }
        _ = try await ann.network.request(
            Api.functions.messages.sendMessage(peer: toChannel, message: "first", randomId: 1))
        try await Support.wait("Ben's first post") { try texts().contains("first") }
        let heard = try ben.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state }
        #expect(heard?.date == Int32(second), "Ben last heard from the server in that second")
        await ben.shutdown()

        _ = try await ann.network.request(
            Api.functions.messages.sendMessage(peer: toChannel, message: "same second", randomId: 2))
        let differences = ben.stateManager.statistics.channelDifferences
        ben.start()
        try await Support.wait(
            "Ben finds the post made in the same second", timeout: 15,
            explain: { "Ben has \((try? texts()) ?? []), \(ben.stateManager.statistics)" }
        ) { try texts().contains("same second") }
        #expect(try texts().filter { $0 == "same second" }.count == 1)
        #expect(ben.stateManager.statistics.channelDifferences > differences)
        try await world.close([ann, ben])
    }

    enum ChannelTestError: Error {
        case unexpected(String)
    }
}
