import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// Places, contacts, dice and polls drawn as cards in both renderers, from a real Postbox: a coordinate card (no map
/// tiles offline) with a venue's title and address and a live location's end, a contact's name and phone, a die's
/// value, a poll's question and answers — bars and shares once we voted, ours marked, a quiz's ✓/✗ — and a kind this
/// version keeps without drawing; the live view redraws when the shared poll changes.
@Suite struct MediaCardRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let start: Int32 = 1_763_000_000  // 13 November 2025, 02:13 UTC

    static func message(_ id: Int32, incoming: Bool = true, text: String = "", media: Media) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)), timestamp: start + id * 60,
            flags: incoming ? [.incoming] : [], authorId: incoming ? chat : me, text: text, attributes: [],
            media: [media])
    }

    static func poll(
        id: Int64, quiz: Bool = false, votes: [Int32]? = nil, chosen: Int? = nil, correct: Int? = nil
    )
        -> TelegramMediaPoll
    {
        let options = ["Phở", "Bún chả", "Bánh mì"].enumerated().map {
            TelegramMediaPollOption(text: $1, opaqueIdentifier: [UInt8($0)])
        }
        let results = votes.map { votes in
            TelegramMediaPollResults(
                voters: votes.enumerated().map { index, count in
                    TelegramMediaPollOptionVoters(
                        selected: index == chosen, opaqueIdentifier: [UInt8(index)], count: count,
                        isCorrect: index == correct)
                }, totalVoters: votes.reduce(0, +), solution: quiz ? .init(text: "Nam Định") : nil)
        }
        return TelegramMediaPoll(
            pollId: MediaId(namespace: Namespaces.Media.cloudPoll, id: id), publicity: .anonymous,
            kind: quiz ? .quiz : .poll(multipleAnswers: false), text: "Ăn gì?", options: options,
            results: results ?? TelegramMediaPollResults())
    }

    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            _ = try tx.addMessages([
                message(1, media: TelegramMediaMap(latitude: 21.0285, longitude: 105.8542)),
                message(
                    2, incoming: false,
                    media: TelegramMediaMap(
                        latitude: 21.0287, longitude: 105.8524,
                        venue: MapVenue(title: "Hồ Hoàn Kiếm", address: "Hoàn Kiếm, Hà Nội"),
                        liveBroadcastingTimeout: 900)),
                message(
                    3,
                    media: TelegramMediaContact(
                        firstName: "Lan", lastName: "Trần", phoneNumber: "+84 24 3825 5555", peerId: nil, vCardData: nil
                    )),
                message(4, incoming: false, media: TelegramMediaDice(emoji: "🎲", value: 5)),
                message(5, text: "vote please", media: poll(id: 71, votes: [0, 0, 0])),
                message(6, media: poll(id: 72, quiz: true, votes: [2, 1, 1], chosen: 0, correct: 1)),
                message(7, media: TelegramMediaUnsupported(constructor: "messageMediaGame", bytes: [1, 2, 3, 4])),
            ])
        }
        return postbox
    }

    @Test func theTerminalDrawsEachCard() throws {
        let directory = TemporaryDirectory(prefix: "cards-terminal")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let renderer = TerminalChatRenderer(width: 80, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
        let text = renderer.render(
            try chatView.entries()
        ).joined(separator: "\n")
        #expect(text.contains("📍 21.02850, 105.85420"))
        #expect(text.contains("Hồ Hoàn Kiếm") && text.contains("Hoàn Kiếm, Hà Nội"))
        // Sent at 02:15 UTC for 15 minutes.
        #expect(text.contains("live until 02:30"), "\(text)")
        #expect(text.contains("👤 Lan Trần") && text.contains("+84 24 3825 5555"))
        #expect(text.contains("🎲 5"))
        // Not voted: the answers without counts, then the caption.
        let beforeVoting = try #require(text.split(separator: "\n").first { $0.contains("○ Phở") })
        #expect(!beforeVoting.contains("█") && !beforeVoting.contains("%") && text.contains("vote please"))
        #expect(text.contains("Anonymous poll") && text.contains("0 votes"))
        // The quiz we got wrong: ours ✗, the right one ✓, bars and shares, the solution.
        #expect(text.contains("✗ 50% Phở") && text.contains("█████░░░░░"), "\(text)")
        #expect(text.contains("✓ 25% Bún chả") && text.contains("███░░░░░░░") && text.contains("○ 25% Bánh mì"))
        #expect(text.contains("4 votes") && text.contains("💡 Nam Định"))
        #expect(text.contains("(messageMediaGame: not shown by this version)"))

        // We vote Bún chả: the live view redraws the shared poll with bars.
        let seen = chatView.recorder.values.count
        try postbox.transactionSync { tx in
            try tx.updateMedia(
                MediaId(namespace: Namespaces.Media.cloudPoll, id: 71),
                update: Self.poll(id: 71, votes: [1, 2, 0], chosen: 1))
        }
        #expect(chatView.recorder.waitForEvents(seen + 1, seconds: 5))
        let after = renderer.render(
            try chatView.entries()
        ).joined(separator: "\n")
        #expect(after.contains("● 67% Bún chả") && after.contains("███████░░░"), "\(after)")
        #expect(after.contains("○ 33% Phở") && after.contains("○ 0% Bánh mì"), "\(after)")
        #expect(after.contains("3 votes"))
    }

    @Test func thePNGDrawsEachCardAsItsLines() throws {
        let directory = TemporaryDirectory(prefix: "cards-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let screen = try fixture.render()
        // Each card's lines are laid out as the bubble's text: a point 1, a live venue 4, a contact 2, a die 1, a poll
        // before voting 6 plus its caption, a quiz answered 10 (each answer and its bar); the game says what it is.
        #expect(try fixture.bubble(1, on: screen).textLines == 1)
        #expect(try fixture.bubble(2, on: screen).textLines == 4)
        #expect(try fixture.bubble(3, on: screen).textLines == 2)
        #expect(try fixture.bubble(4, on: screen).textLines == 1)
        #expect(try fixture.bubble(5, on: screen).textLines == 7)
        #expect(try fixture.bubble(6, on: screen).textLines == 10)
        #expect(try fixture.bubble(7, on: screen).textLines >= 1)
        #expect(try fixture.bubble(6, on: screen).frame.height > fixture.bubble(4, on: screen).frame.height * 4)
        let png = try screen.png()
        #expect(png.count > 1_000)
        if let folder = ProcessInfo.processInfo.environment["CHAT_RENDER_PNG_DIR"] {
            try Data(png).write(to: URL(fileURLWithPath: folder + "/media-cards.png"))
        }
    }
}
