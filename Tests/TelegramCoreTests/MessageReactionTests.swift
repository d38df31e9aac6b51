import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Reactions both ways with Telethon 1.45 on the other side of a real tg-server: Telethon's 👍 on our message reaches
/// our Postbox as `updateMessageReactions` (the message's `ReactionsMessageAttribute`, not ours); our
/// `Account.sendReaction` ❤ on Telethon's message is stored as ours (`chosen_order`) and Telethon sees it pushed and in
/// `messages.getMessagesReactions`, with us as the recent reactor.
@Suite(.serialized) struct MessageReactionTests {
    struct Hello: Decodable {
        let user_id: Int64
        let hi: Int32
    }

    struct Reacted: Decodable {
        let reacted: Int32
        let text: String
    }

    struct Report: Decodable {
        let pushed: [[Counted]]
        let fetched: [[Counted]]
        let recent: [Int64]
    }

    /// One element of Telethon's `[emoji, count, chosen_order]`.
    enum Counted: Decodable, Equatable {
        case text(String)
        case number(Int)
        case none

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .none
            } else if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    static func reactions(_ account: Account, _ id: MessageId) throws -> ReactionsMessageAttribute? {
        try account.postbox.readTransactionSync { try $0.getMessage(id) }?.reactionsAttribute
    }

    @Test func telethonReactsToOursAndSeesOursBack() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622721", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "reaction_peer.py",
            ["--phone", "9996622722", "--target-phone", "9996622721", "--wait", "30"])
        let hello = try JSONDecoder().decode(Hello.self, from: Data(firstLine.utf8))
        let remy = PeerId.user(hello.user_id)
        let hiId = MessageId(peerId: remy, namespace: Namespaces.Message.cloud, id: hello.hi)
        try await AccountIntegrationTests.wait("Remy's message stored") {
            try ann.postbox.readTransactionSync { try $0.getMessage(hiId) } != nil
        }

        // Ann writes; Telethon reacts 👍; the push lands in Ann's stored message, not as hers.
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: remy, messages: [EnqueueMessage(text: "nice?")],
                now: Int32(Date().timeIntervalSince1970))
        }
        var sent: MessageId?
        try await AccountIntegrationTests.wait("Ann's message sent", timeout: 30) {
            sent = try AccountIntegrationTests.storedMessages(ann, with: remy).first {
                $0.text == "nice?" && $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.unsent)
            }?.id
            return sent != nil
        }
        let sentId = try #require(sent)
        // A second message tells Telethon to react: only now is the first stored here as the server's (a reaction
        // pushed before our own send is confirmed would name a message not stored yet, and be left to the next
        // `refreshReactions`).
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: remy, messages: [EnqueueMessage(text: "go")],
                now: Int32(Date().timeIntervalSince1970))
        }
        do {
            try await AccountIntegrationTests.wait("Telethon's 👍 stored on Ann's message", timeout: 30) {
                try Self.reactions(ann, sentId)?.reactions == [.init(emoticon: "👍", count: 1, chosenOrder: nil)]
            }
        } catch {
            let result = await peer.waitOffPool(timeout: 5)
            Issue.record(
                "stored: \(String(describing: try Self.reactions(ann, sentId))); Telethon: \(result.output) \(result.errorOutput.suffix(3000))"
            )
            throw error
        }
        let stored = try #require(try Self.reactions(ann, sentId))
        #expect(stored.recentPeers.map(\.peerId) == [remy] && stored.chosen.isEmpty)

        // Ann reacts ❤ to Remy's message: the answer and the stored copy say it is hers.
        let answered = try await ann.sendReaction(hiId, emoticons: ["❤"])
        #expect(answered.reactions == [.init(emoticon: "❤", count: 1, chosenOrder: 0)] && answered.chosen == ["❤"])
        try await AccountIntegrationTests.wait("Ann's ❤ stored as hers") {
            try Self.reactions(ann, hiId)?.chosen == ["❤"]
        }

        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count >= 3, "\(result.output)")
        let reacted = try JSONDecoder().decode(Reacted.self, from: Data(lines[1].utf8))
        #expect(reacted.reacted == sentId.id && reacted.text == "nice?")
        let report = try JSONDecoder().decode(Report.self, from: Data(lines[2].utf8))
        #expect(report.pushed == [[.text("❤"), .number(1), .none]], "\(result.output)")
        #expect(report.fetched == [[.text("❤"), .number(1), .none]], "\(result.output)")
        #expect(report.recent == [ann.peerId.id.rawValue], "\(result.output)")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann])
    }
}
