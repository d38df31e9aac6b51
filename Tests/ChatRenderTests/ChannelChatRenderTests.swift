import ChatHistory
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

@testable import ChatRender

/// Channels and groups as Telegram-iOS draws them, in the terminal and on the PNG screen: a broadcast channel's posts
/// on the incoming side under the channel's title with their views (`👁 1.2K`) and signature, even those its admin
/// sent; in a supergroup each member's name over their bubbles in their own colour (id modulo 7 of Telegram's seven);
/// joins, leaves, the creation and renames as centred service lines.
@Suite struct ChannelChatRenderTests {
    static let me = PeerId.user(1)
    static let news = PeerId.channel(1_000_000_007)
    static let group = PeerId.channel(1_000_000_008)
    static let ann = PeerId.user(100_004)  // 100004 % 7 == 2: violet
    static let ben = PeerId.user(100_007)  // 100007 % 7 == 5: blue
    static let start: Int32 = 1_763_000_000

    static func message(
        _ peer: PeerId, _ id: Int32, from author: PeerId, incoming: Bool, text: String = "", media: [Media] = [],
        attributes: [MessageAttribute] = []
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: peer, namespace: Namespaces.Message.cloud, id: id)),
            timestamp: start + id * 60, flags: incoming ? [.incoming] : [], authorId: author, text: text,
            attributes: attributes, media: media)
    }

    /// The chat's entries from a real Postbox holding the channel, the supergroup and their members.
    static func entries(
        _ peer: PeerId, _ messages: [StoreMessage], in directory: TemporaryDirectory
    ) throws
        -> [ChatHistoryEntry]
    {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            try tx.updatePeers([
                TelegramChannel(
                    id: news, accessHash: .personal(1), title: "Ann's news", creationDate: start,
                    info: .broadcast([.messagesShouldHaveSignatures])),
                TelegramChannel(
                    id: group, accessHash: .personal(2), title: "Builders", creationDate: start,
                    info: .group([], slowModeTimeout: nil)),
                TelegramUser(id: ann, accessHash: nil, firstName: "Ann", lastName: nil, username: nil, phone: nil),
                TelegramUser(id: ben, accessHash: nil, firstName: "Ben", lastName: nil, username: nil, phone: nil),
            ])
            _ = try tx.addMessages(messages)
        }
        return try LiveChatView(postbox, chat: peer).entries()
    }

    static let names: [PeerId: String] = [me: "Me", ann: "Ann", ben: "Ben"]

    static var channelPosts: [StoreMessage] {
        [
            message(
                news, 1, from: news, incoming: false,
                media: [TelegramMediaAction(action: .groupCreated(title: "Ann's news"))]),
            message(
                news, 2, from: news, incoming: true, text: "Rain in Hanoi today",
                attributes: [
                    ViewCountMessageAttribute(count: 1_234), AuthorSignatureMessageAttribute(signature: "Ann"),
                ]),
            // The admin's own post: still on the incoming side, as every post of a broadcast channel.
            message(
                news, 3, from: news, incoming: false, text: "Sun tomorrow",
                attributes: [ViewCountMessageAttribute(count: 999)]),
        ]
    }

    static var groupMessages: [StoreMessage] {
        [
            message(
                group, 1, from: me, incoming: false,
                media: [TelegramMediaAction(action: .groupCreated(title: "Builders"))]),
            message(
                group, 2, from: ann, incoming: true, media: [TelegramMediaAction(action: .addedMembers(peerIds: [ann]))]
            ),
            message(group, 3, from: ann, incoming: true, text: "hi all"),
            message(group, 4, from: ben, incoming: true, text: "hello Ann"),
            message(group, 5, from: me, incoming: false, text: "welcome"),
            message(
                group, 6, from: me, incoming: false,
                media: [TelegramMediaAction(action: .titleUpdated(title: "Builders 2"))]),
            message(
                group, 7, from: ben, incoming: true,
                media: [TelegramMediaAction(action: .removedMembers(peerIds: [ben]))]),
        ]
    }

    @Test func viewCountsAreCompactAsTelegramShowsThem() {
        let cases: [(Int, String)] = [
            (0, "0"), (999, "999"), (1_000, "1K"), (1_234, "1.2K"), (1_299, "1.2K"), (12_500, "12.5K"),
            (999_999, "999.9K"), (1_000_000, "1M"), (1_550_000, "1.5M"), (20_000_000, "20M"),
        ]
        for (count, expected) in cases { #expect(MessageAuthorship.compactCount(count) == expected, "\(count)") }
        // Telegram-iOS's seven name colours by id modulo 7.
        #expect(MessageAuthorship.colorIndex(Self.ann) == 2 && MessageAuthorship.colorIndex(Self.ben) == 5)
        #expect(MessageAuthorship.nameColors[2] == 0x955CDB && MessageAuthorship.nameColors[5] == 0x368AD1)
    }

    @Test func aChannelsPostsShowTheChannelViewsAndSignatureInTheTerminal() throws {
        let directory = TemporaryDirectory(prefix: "channel-render")
        defer { directory.remove() }
        let entries = try Self.entries(Self.news, Self.channelPosts, in: directory)
        let plain = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: Self.names, colors: false)
            .render(entries)
        let text = plain.joined(separator: "\n")
        #expect(plain.allSatisfy { DisplayWidth.of($0) <= 60 })
        #expect(text.contains("· channel “Ann's news” created ·"), "\(text)")
        #expect(text.contains(MessageAuthorship.viewsIcon + " 1.2K  Ann  02:"), "\(text)")
        #expect(text.contains(MessageAuthorship.viewsIcon + " 999  02:"), "\(text)")
        // The posts on the incoming side (from column 0), the admin's own included, under the channel's title once: the
        // second continues the first's run.
        let titles = plain.filter { $0.contains("Ann's news") && !$0.contains("created") }
        #expect(titles.count == 1 && titles.allSatisfy { $0.hasPrefix("│ Ann's news") }, "\(titles)")
        #expect(plain.contains { $0.hasPrefix("│ Sun tomorrow") }, "\(plain)")
        #expect(!text.contains("✓"), "a channel post shows no sent checks")
        // In colour the title is bold in the channel's colour.
        let coloured = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: Self.names).render(entries)
        let colour = MessageAuthorship.terminalColors[MessageAuthorship.colorIndex(Self.news)]
        #expect(coloured.contains { $0.contains("\u{1B}[1;38;5;\(colour)mAnn's news\u{1B}[0m") })
    }

    @Test func aGroupsMembersAreNamedInTheirColoursWithServiceLinesCentred() throws {
        let directory = TemporaryDirectory(prefix: "group-render")
        defer { directory.remove() }
        let entries = try Self.entries(Self.group, Self.groupMessages, in: directory)
        let lines = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: Self.names).render(entries)
        let annColour = MessageAuthorship.terminalColors[2], benColour = MessageAuthorship.terminalColors[5]
        #expect(annColour != benColour)
        #expect(lines.contains { $0.contains("\u{1B}[1;38;5;\(annColour)mAnn\u{1B}[0m") })
        #expect(lines.contains { $0.contains("\u{1B}[1;38;5;\(benColour)mBen\u{1B}[0m") })
        let plain = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: Self.names, colors: false)
            .render(entries)
        // Our own message carries no name; service lines are centred.
        #expect(!plain.contains { $0.contains("│ Me") })
        for service in [
            "· group “Builders” created ·", "· Ann joined ·", "· Me changed the title to “Builders 2” ·",
            "· Ben left ·",
        ] {
            let line = try #require(plain.first { $0.contains(service) }, "\(service) in \(plain)")
            let leading = line.prefix { $0 == " " }.count
            #expect(abs(leading - (60 - DisplayWidth.of(service)) / 2) <= 1, "\(service) centred")
        }
    }

    @Test func thePNGScreenHeadsBubblesWithNamesAndPostsWithViews() throws {
        let directory = TemporaryDirectory(prefix: "channel-png")
        defer { directory.remove() }
        let style = ChatScreenStyle(width: 360, height: 1200, scale: 2)
        let channel = try Self.entries(Self.news, Self.channelPosts, in: directory)
        let screen = ChatScreenRenderer(style: style, accountPeerId: Self.me, names: Self.names, title: "Ann's news")
            .render(channel)
        let posts = screen.geometry.items.filter { if case .bubble = $0.content { true } else { false } }
        #expect(posts.count == 2)
        // Both on the incoming side; the title heads the run once (the second post merges with the first).
        #expect(posts.allSatisfy { $0.side == .incoming })
        #expect(posts.map(\.authorName) == ["Ann's news", nil])
        #expect(
            posts[0].timeText == MessageAuthorship.viewsIcon + " 1.2K  Ann  02:15",
            "\(String(describing: posts[0].timeText))")
        #expect(posts[1].timeText?.hasPrefix(MessageAuthorship.viewsIcon + " 999  ") == true)
        // The title's pixels: some of them in the channel's name colour, inside the bubble.
        let title = try #require(posts[0].authorOrigin)
        let colour = CanvasColor(rgb: MessageAuthorship.nameColors[MessageAuthorship.colorIndex(Self.news)])
        #expect(posts[0].authorColor == colour)
        #expect(title.x > posts[0].frame.x && title.y > posts[0].frame.y && title.y < posts[0].frame.maxY)
        var near = 0
        for y in Int(title.y)..<Int(title.y + style.px(style.replySize) * 1.4) {
            for x in Int(title.x)..<Int(min(posts[0].frame.maxX, title.x + style.px(120))) {
                guard let pixel = screen.pixels.pixel(x: x, y: y) else { continue }
                if abs(Int(pixel.red) - Int(colour.pixel.red)) + abs(Int(pixel.green) - Int(colour.pixel.green))
                    + abs(Int(pixel.blue) - Int(colour.pixel.blue)) < 40
                {
                    near += 1
                }
            }
        }
        #expect(near > 20, "the title is drawn in its colour (\(near) pixels)")
        let service = try #require(
            screen.geometry.items.first { if case .service = $0.content { true } else { false } })
        #expect(service.side == .centre && abs(service.frame.x + service.frame.width / 2 - 360) < 0.5)

        let groupDirectory = TemporaryDirectory(prefix: "group-png")
        defer { groupDirectory.remove() }
        let groupEntries = try Self.entries(Self.group, Self.groupMessages, in: groupDirectory)
        let groupScreen = ChatScreenRenderer(style: style, accountPeerId: Self.me, names: Self.names, title: "Builders")
            .render(groupEntries)
        let bubbles = groupScreen.geometry.items.filter { if case .bubble = $0.content { true } else { false } }
        #expect(bubbles.map(\.authorName) == ["Ann", "Ben", nil])
        #expect(
            bubbles[0].authorColor == CanvasColor(rgb: 0x955CDB) && bubbles[1].authorColor == CanvasColor(rgb: 0x368AD1)
        )
        #expect(bubbles[2].side == .outgoing && bubbles[2].timeText == "02:18")
        #expect(groupScreen.geometry.items.filter { if case .service = $0.content { true } else { false } }.count == 4)
    }
}
