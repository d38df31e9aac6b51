import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// Videos drawn in both renderers from a real Postbox: a video with a ▶ badge and its duration, a round video as a
/// circle, a GIF with "GIF"; the terminal names each with its duration and size.
@Suite struct VideoRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)

    static func video(_ id: Int64, _ attributes: [TelegramMediaFileAttribute]) -> TelegramMediaFile {
        TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: id),
            resource: .cloudDocument(datacenterId: 2, fileId: id, accessHash: 1, fileReference: [], size: 9_000),
            mimeType: "video/mp4", size: 9_000, attributes: attributes)
    }

    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let size = PixelDimensions(width: 320, height: 240)
        let square = PixelDimensions(width: 240, height: 240)
        let media: [TelegramMediaFile] = [
            video(
                1, [.video(duration: 75, size: size, isRoundMessage: false, supportsStreaming: true, noSound: false)]),
            video(
                2, [.video(duration: 5, size: square, isRoundMessage: true, supportsStreaming: true, noSound: false)]),
            video(
                3,
                [
                    .animated,
                    .video(duration: 2, size: square, isRoundMessage: false, supportsStreaming: true, noSound: true),
                ]
            ),
        ]
        try postbox.transactionSync { tx in
            _ = try tx.addMessages(
                media.enumerated().map { index, file in
                    StoreMessage(
                        id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: Int32(index + 1))),
                        timestamp: 1_763_000_000 + Int32(index) * 60, flags: [.incoming], authorId: chat, text: "",
                        attributes: [], media: [file])
                })
        }
        return postbox
    }

    @Test func theTerminalNamesEachVideo() throws {
        let directory = TemporaryDirectory(prefix: "video-terminal")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let renderer = TerminalChatRenderer(width: 80, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
        let text = renderer.render(
            try chatView.entries()
        ).joined(separator: "\n")
        #expect(text.contains("[▶ video 1:15 320×240]"), "\(text)")
        #expect(text.contains("[● round video 0:05]") && text.contains("[GIF 240×240]"), "\(text)")
    }

    @Test func thePNGBadgesEachVideoAndCutsTheRoundOneToACircle() throws {
        let directory = TemporaryDirectory(prefix: "video-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let screen = try fixture.render()
        let cells = try (1...3).map { try #require(fixture.bubble($0, on: screen).mediaCells.first) }
        #expect(cells.map { $0.badge?.text } == ["▶ 1:15", "● 0:05", "GIF"])
        for cell in cells {
            let pill = try #require(cell.badgeFrame)
            #expect(pill.x >= cell.rect.x && pill.y >= cell.rect.y && pill.maxX <= cell.rect.maxX, "the pill is on it")
        }
        // The round video's cell: its centre is the placeholder, its corner is not (the circle leaves it).
        let round = cells[1].rect
        let corner = try #require(screen.pixels.pixel(x: Int(round.x + 2), y: Int(round.y + 2)))
        let centre = try #require(
            screen.pixels.pixel(x: Int(round.x + round.width / 2), y: Int(round.y + round.height * 0.8)))
        #expect(corner != centre, "corner \(corner), centre \(centre)")
    }
}
