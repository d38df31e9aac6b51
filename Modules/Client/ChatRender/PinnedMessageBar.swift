import Foundation
public import Postbox
import SyncCore
public import TextLayout

/// The pinned-message bar over a chat's history (Telegram-iOS `ChatPinnedMessageTitlePanelNode`): an accent line, the
/// title "Pinned Message" and the newest pinned message's text (or what its media is) on one line. The account keeps
/// the pinned messages as the `.pinned` tag; a screen shows the newest.
public struct PinnedMessageBar: Equatable, Sendable {
    /// The message shown.
    public var messageId: MessageId
    /// Its text on one line, or what its media is ("Photo", "Voice message", …).
    public var text: String

    public init(messageId: MessageId, text: String) {
        self.messageId = messageId
        self.text = text
    }

    /// The bar for the pinned `message`.
    public init(_ message: Message) {
        self.init(messageId: message.id, text: ChatScreenRenderer.quote(message))
    }

    public static let title = "Pinned Message"

    /// The pin's service line, as Telegram words it ("Ann pinned “Hello”"; Telegram-iOS
    /// `PresentationStrings.Notification_PinnedTextMessage`): the pinned message's text shortened to `limit`
    /// characters, or "a message" when it is not loaded.
    static func serviceText(author: String?, pinned: Message?, limit: Int = 30) -> String {
        let who = author ?? "someone"
        guard let pinned else { return "\(who) pinned a message" }
        let quote = ChatScreenRenderer.quote(pinned)
        let short = quote.count > limit ? String(quote.prefix(limit - 1)) + "…" : quote
        return "\(who) pinned “\(short)”"
    }

    /// The message a pin's service message names (its reply header), among `byId`.
    static func target(of service: Message, in byId: [MessageId: Message]) -> Message? {
        service.attributes.compactMap { $0 as? ReplyMessageAttribute }.first.flatMap { byId[$0.messageId] }
    }
}

/// Where a drawn pinned bar is.
public struct PinnedBarGeometry: Sendable {
    /// The whole bar, under the navigation bar.
    public var frame: CanvasRect
    /// The accent line at its left.
    public var accent: CanvasRect
    public var titleOrigin: CanvasPoint
    public var textOrigin: CanvasPoint
    /// The (one-line, possibly shortened) text drawn.
    public var text: String
}

extension TerminalChatRenderer {
    /// The pinned bar as terminal lines, to print over `render`'s: `📌 Pinned Message: text` shortened to the
    /// width, then a rule.
    public func pinnedBarLines(_ bar: PinnedMessageBar) -> [String] {
        let head = "📌 \(PinnedMessageBar.title): "
        var text = bar.text
        let room = max(1, width - DisplayWidth.of(head))
        if DisplayWidth.of(text) > room {
            var out = ""
            for character in text {
                if DisplayWidth.of(out) + DisplayWidth.of(character) > room - 1 { break }
                out.append(character)
            }
            text = out + "…"
        }
        let rule = String(repeating: "─", count: width)
        guard colors else { return [head + text, rule] }
        return [
            "\u{1B}[1m\u{1B}[38;5;32m" + head + TerminalStyle.reset + text,
            TerminalStyle.dim + rule + TerminalStyle.reset,
        ]
    }
}

extension ChatScreenRenderer {
    /// The bar's height, points.
    static let pinnedBarHeight = 48.0

    /// Draws `bar` under the navigation bar (whose bottom is at `top`).
    func drawPinnedBar(_ bar: PinnedMessageBar, _ canvas: inout Canvas, top: Double) -> PinnedBarGeometry {
        let s = style
        let width = Double(s.pixelWidth)
        let height = s.px(Self.pinnedBarHeight)
        let frame = CanvasRect(x: 0, y: top, width: width, height: height)
        canvas.fill(frame, color: s.bars)
        canvas.fill(CanvasRect(x: 0, y: frame.maxY - 1, width: width, height: 1), color: s.barLine)
        let accent = CanvasRect(x: s.px(10), y: top + s.px(7), width: s.px(2), height: height - s.px(14))
        canvas.fill(accent, radii: .all(accent.width / 2), color: s.incomingAccent)
        let textX = accent.maxX + s.px(8)
        let room = Int(width - textX - s.px(10))
        let size = s.px(s.replySize)
        let titleOrigin = CanvasPoint(x: textX, y: top + s.px(7))
        let bold = [MessageTextEntity(range: 0..<PinnedMessageBar.title.utf16.count, type: .bold)]
        canvas.drawText(
            PinnedMessageBar.title, entities: bold, width: room, fontSize: size, at: titleOrigin,
            color: s.incomingAccent)
        let line = Self.oneLine(bar.text, width: room, fontSize: size)
        let textOrigin = CanvasPoint(x: textX, y: top + s.px(25))
        canvas.drawText(line, width: room, fontSize: size, at: textOrigin, color: s.text)
        return PinnedBarGeometry(
            frame: frame, accent: accent, titleOrigin: titleOrigin, textOrigin: textOrigin, text: line)
    }

    /// `text` shortened with "…" until it lays out on one line `width` pixels wide.
    static func oneLine(_ text: String, width: Int, fontSize: Double) -> String {
        var shown = text.replacingOccurrences(of: "\n", with: " ")
        var count = shown.count
        while count > 1, TextLayout.layout(shown, width: width, fontSize: fontSize).lineCount > 1 {
            count = count * 9 / 10
            shown = String(text.replacingOccurrences(of: "\n", with: " ").prefix(count)) + "…"
        }
        return shown
    }
}
