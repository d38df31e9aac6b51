import Foundation
import Postbox
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// Reading and deleting in a supergroup go through the stored action queue as `channels.readHistory` and
/// `channels.deleteMessages` (core.telegram.org/method/channels.readHistory, /channels.deleteMessages — a channel's
/// read mark and deletes are not in the common pts): each shows locally at once, reaches the other member, and the
/// delete's answer moves the channel's own pts in sequence, so no channel difference is fetched for it.
@Suite(.serialized) struct ChannelMessageActionsTests {
    /// Ann and Ben started and caught up, and the supergroup Ann made (through the client's own actions) and invited
    /// Ben to, once Ben's account stores it.
    static func supergroupOfAnnAndBen(
        _ world: AccountIntegrationTests.World, phones: (ann: String, ben: String), title: String
    ) async throws -> (ann: Account, ben: Account, group: PeerId) {
        let ann = try await AccountIntegrationTests.signUp(world, phone: phones.ann, name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: phones.ben, name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: phones.ben, name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") {
            ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp
        }
        let group = try await ann.createChannel(title: title, kind: .supergroup)
        try await ann.invite([ben.peerId], to: group)
        try await AccountIntegrationTests.wait("Ben stores the supergroup") {
            try ben.postbox.readTransactionSync { tx in try tx.getPeer(group) } != nil
        }
        return (ann, ben, group)
    }

    @Test func aReadAndADeleteInASupergroupReachTheOtherMemberInTheChannelsSequence() async throws {
        // A gap waits 30 s: a channel pts our delete put out of sequence would stay held and show at the end.
        let world = try await AccountIntegrationTests.World(gapWait: 30)
        let (ann, ben, group) = try await Self.supergroupOfAnnAndBen(world, phones: ("9996622611", "9996622612"), title: "Builders")
        try ann.enqueue(["one", "two", "three"].map { EnqueueMessage(text: $0) }, to: group)
        func channelPts(_ account: Account) throws -> Int32? {
            try account.postbox.readTransactionSync { tx in (try tx.getPeerChatState(group) as? ChannelState)?.pts }
        }
        func texts(_ account: Account) throws -> [String] {
            try AccountIntegrationTests.storedMessages(account, with: group).sorted { $0.index < $1.index }.map(\.text)
                .filter { !$0.isEmpty }
        }
        try await AccountIntegrationTests.wait(
            "Ben has the three",
            explain: {
                "Ben holds \((try? texts(ben)) ?? []), channel pts \(String(describing: try? channelPts(ben))) (Ann's \(String(describing: try? channelPts(ann)))), \(ben.stateManager.statistics)"
            }
        ) { try texts(ben) == ["one", "two", "three"] }
        try await AccountIntegrationTests.wait("Ann's are sent") {
            try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty
        }
        func unread(_ account: Account) throws -> Int32? {
            try account.postbox.readTransactionSync { tx in try tx.getCombinedPeerReadState(group)?.count }
        }
        try await AccountIntegrationTests.wait("Ben's unread count counts them") { try unread(ben) ?? 0 >= 3 }
        let annChannelDifferences = ann.stateManager.statistics.channelDifferences

        // Ben reads up to the newest: his count drops at once; the server has his mark (Ann, the author, sees her
        // messages read through `updateReadChannelOutbox`).
        let newest = try #require(AccountIntegrationTests.storedMessages(ben, with: group).map(\.id.id).max())
        try await ben.markRead(peerId: group, upTo: newest)
        #expect(try unread(ben) == 0)
        #expect(try ben.actions.pending().isEmpty, "the read left the queue once the server had it")
        try await AccountIntegrationTests.wait("Ann sees her messages read") {
            try ann.postbox.readTransactionSync { tx in
                try tx.getCombinedPeerReadState(group)?.states[Namespaces.Message.cloud]?.maxOutgoingReadId
            } == newest
        }

        // Ann deletes "two": gone from her Postbox at once, then from Ben's through `updateDeleteChannelMessages`.
        let two = try #require(AccountIntegrationTests.storedMessages(ann, with: group).first { $0.text == "two" }?.id)
        let before = try #require(try channelPts(ann))
        try await ann.deleteMessages([two], forEveryone: false)
        #expect(try texts(ann) == ["one", "three"])
        try await AccountIntegrationTests.wait("Ben's copy deleted") { try texts(ben) == ["one", "three"] }
        #expect(try ann.actions.pending().isEmpty)

        // The delete's pts went into the channel's sequence: Ann's stored pts moved by one, with no channel difference.
        try await AccountIntegrationTests.wait("Ann's channel pts moved past the delete") {
            try channelPts(ann) == before + 1
        }
        #expect(ann.stateManager.statistics.channelDifferences == annChannelDifferences)
        try await world.close([ann, ben])
    }

    /// A post sent to a supergroup takes the server's date from the answer's `updateNewChannelMessage`, as one in a
    /// private chat takes it from `updateShortSentMessage`: with the server's clock two hours ahead of the device's,
    /// Ann's own post must sort after Ben's earlier one at Ann's too (found by the simulation: it kept the device's
    /// date and sorted first).
    @Test func aSentPostTakesTheServersDate() async throws {
        let world = try await AccountIntegrationTests.World(serverClock: { Date().timeIntervalSince1970 + 7_200 })
        let (ann, ben, group) = try await Self.supergroupOfAnnAndBen(world, phones: ("9996622621", "9996622622"), title: "Clocks")
        func posts(_ account: Account) throws -> [Message] {
            try AccountIntegrationTests.storedMessages(account, with: group).filter { !$0.text.isEmpty }
                .sorted { $0.index < $1.index }
        }
        try ben.enqueue([EnqueueMessage(text: "Ben first")], to: group)
        try await AccountIntegrationTests.wait("Ann has Ben's post") { try posts(ann).map(\.text) == ["Ben first"] }
        try ann.enqueue([EnqueueMessage(text: "Ann second")], to: group)
        try await AccountIntegrationTests.wait("Ann's post is sent") {
            try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty
        }
        let sent = try #require(try posts(ann).first { $0.text == "Ann second" })
        #expect(Double(sent.timestamp) > Date().timeIntervalSince1970 + 3_600, "the server's date, not the device's")
        #expect(try posts(ann).map(\.text) == ["Ben first", "Ann second"])
        try await world.close([ann, ben])
    }
}
