import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Polls, locations, contacts and dice with Telethon 1.45 on the other side of a real tg-server: what Telethon sends
/// is stored as our media types (the die with the value the server rolled for it); Telethon's vote in our poll
/// reaches our stored poll as `updateMessagePoll`; our `Account.vote` in Telethon's poll is stored as ours and Telethon
/// sees it pushed and in `messages.getPollResults`.
@Suite(.serialized) struct PollTelethonTests {
    struct Hello: Decodable {
        let user_id: Int64
        let poll: Int32
        let poll_id: Int64
        let geo: Int32
        let contact: Int32
        let dice: Int32
        let dice_value: Int32
    }

    struct Voted: Decodable {
        let voted: Int32
        let question: String
    }

    struct Report: Decodable {
        let pushed: [Int32]
        let fetched: [Int32]
        let chosen: [Bool]
    }

    static func media<T>(_ account: Account, _ id: MessageId, as type: T.Type) throws -> T? {
        try account.postbox.readTransactionSync { try $0.getMessage(id) }?.media.lazy.compactMap { $0 as? T }.first
    }

    @Test func telethonSendsPlacesAndPollsAndBothSidesVote() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622731", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "poll_peer.py", ["--phone", "9996622732", "--target-phone", "9996622731", "--wait", "30"])
        let hello = try JSONDecoder().decode(Hello.self, from: Data(firstLine.utf8))
        let remy = PeerId.user(hello.user_id)
        func id(_ value: Int32) -> MessageId { MessageId(peerId: remy, namespace: Namespaces.Message.cloud, id: value) }
        try await AccountIntegrationTests.wait("Telethon's four messages stored") {
            try Self.media(ann, id(hello.dice), as: TelegramMediaDice.self) != nil
        }
        // What Telethon sent, as our types.
        let theirPoll = try #require(try Self.media(ann, id(hello.poll), as: TelegramMediaPoll.self))
        #expect(theirPoll.pollId.id == hello.poll_id && theirPoll.text == "Ăn gì?")
        #expect(theirPoll.options.map(\.text) == ["Phở", "Bún chả", "Bánh mì"] && !theirPoll.hasVoted)
        let place = try #require(try Self.media(ann, id(hello.geo), as: TelegramMediaMap.self))
        #expect(place.latitude == 21.0285 && place.longitude == 105.8542 && place.venue == nil)
        let contact = try #require(try Self.media(ann, id(hello.contact), as: TelegramMediaContact.self))
        #expect(contact.displayName == "Lan Trần" && contact.phoneNumber == "+84 24 3825 5555" && contact.peerId == nil)
        let dice = try #require(try Self.media(ann, id(hello.dice), as: TelegramMediaDice.self))
        #expect(dice == TelegramMediaDice(emoji: "🎲", value: hello.dice_value) && (1...6).contains(hello.dice_value))

        // Ann sends her poll; Telethon votes for its second answer; the push lands in Ann's stored poll.
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: remy,
                messages: [
                    EnqueueMessage(
                        text: "",
                        media: TelegramMediaPoll.outgoing(question: "Mấy giờ?", answers: ["7 pm", "8 pm", "9 pm"]))
                ], now: Int32(Date().timeIntervalSince1970))
        }
        var ours: MessageId?
        try await AccountIntegrationTests.wait("Ann's poll sent", timeout: 30) {
            ours = try AccountIntegrationTests.storedMessages(ann, with: remy).first {
                $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.incoming)
                    && $0.media.contains { ($0 as? TelegramMediaPoll)?.text == "Mấy giờ?" }
            }?.id
            return ours != nil
        }
        let oursId = try #require(ours)
        do {
            try await AccountIntegrationTests.wait("Telethon's vote stored in Ann's poll", timeout: 30) {
                try Self.media(ann, oursId, as: TelegramMediaPoll.self)?.results.voters?.map(\.count) == [0, 1, 0]
            }
        } catch {
            let result = await peer.waitOffPool(timeout: 5)
            Issue.record(
                "stored: \(String(describing: try Self.media(ann, oursId, as: TelegramMediaPoll.self))); Telethon: \(result.output) \(result.errorOutput.suffix(3000))"
            )
            throw error
        }
        #expect(try Self.media(ann, oursId, as: TelegramMediaPoll.self)?.hasVoted == false)

        // Ann votes Phở in Telethon's poll: stored as hers at once.
        let answered = try await ann.vote(id(hello.poll), optionIndices: [0])
        #expect(answered.results.voters?.map(\.count) == [1, 0, 0] && answered.hasVoted)
        #expect(try Self.media(ann, id(hello.poll), as: TelegramMediaPoll.self)?.results.voters?.first?.selected == true)

        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count >= 3, "\(result.output)")
        let voted = try JSONDecoder().decode(Voted.self, from: Data(lines[1].utf8))
        #expect(voted.voted == oursId.id && voted.question == "Mấy giờ?")
        let report = try JSONDecoder().decode(Report.self, from: Data(lines[2].utf8))
        #expect(report.pushed == [1, 0, 0] && report.fetched == [1, 0, 0], "\(result.output)")
        #expect(report.chosen == [false, false, false], "Telethon did not vote in its own poll: \(result.output)")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann])
    }
}
