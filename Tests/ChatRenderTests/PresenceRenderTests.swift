import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// A private chat's header shows the user's presence as Telegram's does: "online" in the accent colour, "last seen 5
/// minutes ago" / "last seen recently" in grey — from a presence stored in a real Postbox's presence table, in the
/// terminal and in the PNG.
@Suite struct PresenceRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let now: Int32 = 1_763_000_000

    /// The stored presence of the chat's user after `status` was written, as a peer view shows it.
    static func stored(_ status: UserPresenceStatus) throws -> TelegramUserPresence {
        let directory = TemporaryDirectory(prefix: "presence-render")
        defer { directory.remove() }
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            try tx.updatePeerPresences([chat: TelegramUserPresence(status: status)])
        }
        return try #require(
            try postbox.readTransactionSync { tx in try tx.getPeerPresence(chat) } as? TelegramUserPresence)
    }

    @Test func theTerminalHeaderSaysOnlineOrWhenLastSeen() throws {
        let renderer = TerminalChatRenderer(width: 50, accountPeerId: Self.me, colors: false)
        func header(_ status: UserPresenceStatus) throws -> [String] {
            renderer.headerLines(
                title: "Bob", subtitle: ChatSubtitle(presence: try Self.stored(status), now: Self.now))
        }
        #expect(try header(.present(until: Self.now + 200)) == ["Bob · online", String(repeating: "─", count: 50)])
        #expect(try header(.offline(since: Self.now - 300)).first == "Bob · last seen 5 minutes ago")
        #expect(try header(.recently).first == "Bob · last seen recently")
        // With colours, "online" is blue and an older time dim.
        var coloured = renderer
        coloured.colors = true
        let online = coloured.headerLines(title: "Bob", subtitle: ChatSubtitle(text: "online", isOnline: true))
        #expect(online.first?.contains("\u{1B}[38;5;32monline") == true, "\(online)")
        let away = coloured.headerLines(title: "Bob", subtitle: ChatSubtitle(text: "last seen recently"))
        #expect(away.first?.contains("\u{1B}[2mlast seen recently") == true, "\(away)")
    }

    @Test func thePNGDrawsTheSubtitleUnderTheTitle() throws {
        let style = ChatScreenStyle(width: 360, height: 400, scale: 2)
        func screen(_ status: UserPresenceStatus?) throws -> RenderedChatScreen {
            let subtitle = try status.map { ChatSubtitle(presence: try Self.stored($0), now: Self.now) }
            return ChatScreenRenderer(style: style, accountPeerId: Self.me, title: "Bob", subtitle: subtitle).render([])
        }
        /// Pixels within `frame` close to `color`.
        func ink(_ screen: RenderedChatScreen, _ frame: CanvasRect, _ color: CanvasColor) -> Int {
            var count = 0
            for y in Int(frame.y)..<Int(frame.maxY.rounded(.up)) {
                for x in Int(frame.x)..<Int(frame.maxX.rounded(.up)) {
                    guard let pixel = screen.pixels.pixel(x: x, y: y) else { continue }
                    let near = { (channel: UInt8, value: Double) in abs(Double(channel) - value * 255) < 40 }
                    if near(pixel.red, color.red) && near(pixel.green, color.green) && near(pixel.blue, color.blue) {
                        count += 1
                    }
                }
            }
            return count
        }
        let online = try screen(.present(until: Self.now + 200))
        let onlineLine = try #require(online.geometry.subtitle)
        #expect(onlineLine.color == style.incomingAccent)
        #expect(onlineLine.frame.maxY <= style.px(style.navigationBarHeight), "inside the navigation bar")
        #expect(ink(online, onlineLine.frame, style.incomingAccent) > 20, "online is drawn in the accent colour")
        let away = try screen(.offline(since: Self.now - 300))
        let awayLine = try #require(away.geometry.subtitle)
        #expect(awayLine.color == style.incomingTime)
        #expect(awayLine.frame.width > onlineLine.frame.width, "'last seen 5 minutes ago' is longer than 'online'")
        #expect(ink(away, awayLine.frame, style.incomingTime) > 20)
        #expect(ink(away, awayLine.frame, style.incomingAccent) == 0)
        #expect(try screen(nil).geometry.subtitle == nil, "a chat without presence has no subtitle")
    }
}
