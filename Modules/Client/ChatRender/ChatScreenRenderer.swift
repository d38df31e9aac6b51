public import ChatHistory
import Foundation
public import Postbox
import SyncCore
public import TextLayout

/// A chat drawn as a phone screen (a PNG through TextLayout's cairo `Canvas`) from its history entries: incoming
/// bubbles on the left in white, ours on the right in green, each run of one author's bubbles merged with small inner
/// corners and a tail on its last bubble; centred date pills and service messages; the unread separator bar; reply
/// headers (an accent bar, the author, the quoted line); photos and albums as a grid of cells from `ChatMedia`
/// (stripped thumbnails or fetched sizes); stickers' first frames and large emoji without a bubble; voice notes as
/// waveform bars; text with its entities styled by TextLayout. The newest item sits at the bottom above the input
/// panel and older ones go up until the navigation bar (the inverted list's bottom-anchored viewport, scrolled to
/// the bottom). Every rectangle drawn that a test may check is in `ChatScreenGeometry`.
public struct ChatScreenRenderer: Sendable {
    public var style: ChatScreenStyle
    /// This account: its messages are on the right.
    public var accountPeerId: PeerId
    /// Names for reply headers (this account's own name included, else "You").
    public var names: [PeerId: String]
    /// The navigation bar's title (the peer's name).
    public var title: String
    /// The time zone of times and date headers, seconds east of UTC.
    public var utcOffset: Int32
    /// The pinned-message bar under the navigation bar (the chat's newest pinned message), when there is one.
    public var pinnedBar: PinnedMessageBar?
    /// The line under the title: a user's presence ("online", "last seen 5 minutes ago"; `ChatSubtitle`).
    public var subtitle: ChatSubtitle?

    public init(
        style: ChatScreenStyle = .phone, accountPeerId: PeerId, names: [PeerId: String] = [:], title: String = "",
        utcOffset: Int32 = 0, pinnedBar: PinnedMessageBar? = nil, subtitle: ChatSubtitle? = nil
    ) {
        self.style = style
        self.accountPeerId = accountPeerId
        self.names = names
        self.title = title
        self.utcOffset = utcOffset
        self.pinnedBar = pinnedBar
        self.subtitle = subtitle
    }

    /// The screen's drawing steps and geometry, without rendering. `scrollOffset` is how far the history is scrolled
    /// up from the bottom, in pixels (ListView's `scrollOffset`; 0 shows the newest item above the input panel,
    /// `geometry.maxScrollOffset` the oldest under the navigation bar).
    public func layout(
        _ entries: [ChatHistoryEntry], media: ChatMedia = .none, scrollOffset: Double = 0
    ) -> (canvas: Canvas, geometry: ChatScreenGeometry) {
        var canvas = Canvas(width: style.pixelWidth, height: style.pixelHeight, background: style.background)
        let top = style.navigationBarHeight + (pinnedBar == nil ? 0 : Self.pinnedBarHeight)
        let area = CanvasRect(
            x: 0, y: style.px(top), width: Double(style.pixelWidth),
            height: Double(style.pixelHeight) - style.px(top + style.inputPanelHeight))
        let rows = ChatScreenRows(renderer: self, entries: entries, media: media).rows
        // Each row's top, newest first from the bottom of the area, before scrolling.
        var tops = [Double](repeating: 0, count: rows.count)
        var bottom = area.maxY - style.px(style.itemSpacing)
        for index in rows.indices.reversed() {
            tops[index] = bottom - rows[index].height
            bottom = tops[index] - style.px(rows[index].mergedAbove ? style.mergedSpacing : style.itemSpacing)
        }
        let contentHeight = area.maxY - bottom
        let offset = min(max(0, scrollOffset), max(0, contentHeight - area.height))
        var items: [ChatScreenItem] = []
        for index in rows.indices {
            let top = tops[index] + offset
            guard top < area.maxY, top + rows[index].height > area.y else { continue }
            items.append(rows[index].draw(&canvas, top))
        }
        let subtitleFrame = drawBars(&canvas, avatar: media.avatar)
        var geometry = ChatScreenGeometry(
            width: style.pixelWidth, height: style.pixelHeight, historyArea: area, items: items,
            contentHeight: contentHeight, scrollOffset: offset)
        geometry.subtitle = subtitleFrame.map {
            ($0, subtitle?.isOnline == true ? style.incomingAccent : style.incomingTime)
        }
        if let pinnedBar {
            geometry.pinnedBar = drawPinnedBar(pinnedBar, &canvas, top: style.px(style.navigationBarHeight))
        }
        return (canvas, geometry)
    }

    /// The screen rendered: its pixels and geometry (`png()` encodes it).
    public func render(
        _ entries: [ChatHistoryEntry], media: ChatMedia = .none, scrollOffset: Double = 0
    ) -> RenderedChatScreen {
        let (canvas, geometry) = layout(entries, media: media, scrollOffset: scrollOffset)
        return RenderedChatScreen(pixels: canvas.render(), geometry: geometry)
    }

    /// The navigation bar with the title (and the subtitle under it, as Telegram's chat header has it: the accent
    /// colour when online, grey otherwise) and an avatar — the chat's photo when there is one, else its initial on a
    /// circle — and the input panel with its field. Returns the subtitle's frame.
    private func drawBars(_ canvas: inout Canvas, avatar picture: ChatPicture?) -> CanvasRect? {
        let s = style
        let width = Double(s.pixelWidth), height = Double(s.pixelHeight)
        let bar = s.px(s.navigationBarHeight)
        canvas.fill(CanvasRect(x: 0, y: 0, width: width, height: bar), color: s.bars)
        canvas.fill(CanvasRect(x: 0, y: bar - 1, width: width, height: 1), color: s.barLine)
        let titleSize = s.px(17)
        let bold = [MessageTextEntity(range: 0..<title.utf16.count, type: .bold)]
        let laid = TextLayout.layout(title, entities: bold, width: Int(width), fontSize: titleSize)
        var subtitleFrame: CanvasRect?
        if let subtitle {
            let small = s.px(13)
            let line = TextLayout.layout(subtitle.text, width: Int(width), fontSize: small)
            let total = laid.bounds.height + line.bounds.height
            let top = (bar - total) / 2
            canvas.drawText(
                title, entities: bold, width: Int(width), fontSize: titleSize,
                at: CanvasPoint(x: (width - laid.bounds.width) / 2, y: top), color: s.text)
            let origin = CanvasPoint(x: (width - line.bounds.width) / 2, y: top + laid.bounds.height)
            canvas.drawText(
                subtitle.text, width: Int(width), fontSize: small, at: origin,
                color: subtitle.isOnline ? s.incomingAccent : s.incomingTime)
            subtitleFrame = CanvasRect(
                x: origin.x, y: origin.y, width: line.bounds.width, height: line.bounds.height)
        } else {
            canvas.drawText(
                title, entities: bold, width: Int(width), fontSize: titleSize,
                at: CanvasPoint(x: (width - laid.bounds.width) / 2, y: (bar - laid.bounds.height) / 2), color: s.text)
        }
        let avatar = s.px(ChatScreenStyle.headerAvatarRadius)
        let centre = CanvasPoint(x: width - s.px(12) - avatar, y: bar / 2)
        if let picture {
            let circle = CanvasRect(x: centre.x - avatar, y: centre.y - avatar, width: 2 * avatar, height: 2 * avatar)
            canvas.draw(picture.image, in: circle, mode: .fill, radii: .all(avatar))
        } else {
            canvas.fillCircle(center: centre, radius: avatar, color: s.incomingAccent)
            let initial = String(title.prefix(1))
            let letter = TextLayout.layout(initial, width: Int(avatar * 2), fontSize: s.px(17))
            canvas.drawText(
                initial, width: Int(avatar * 2), fontSize: s.px(17),
                at: CanvasPoint(x: centre.x - letter.bounds.width / 2, y: centre.y - letter.bounds.height / 2),
                color: s.pillText)
        }

        let panel = s.px(s.inputPanelHeight)
        canvas.fill(CanvasRect(x: 0, y: height - panel, width: width, height: panel), color: s.bars)
        canvas.fill(CanvasRect(x: 0, y: height - panel, width: width, height: 1), color: s.barLine)
        let field = CanvasRect(
            x: s.px(12), y: height - panel + s.px(8), width: width - s.px(24), height: panel - s.px(16))
        canvas.fill(field, radii: .all(field.height / 2), color: s.barLine)
        let inner = CanvasRect(x: field.x + 1.5, y: field.y + 1.5, width: field.width - 3, height: field.height - 3)
        canvas.fill(inner, radii: .all(inner.height / 2), color: CanvasColor(rgb: 0xFFFFFF))
        let placeholder = TextLayout.layout("Message", width: Int(field.width), fontSize: s.px(s.textSize))
        canvas.drawText(
            "Message", width: Int(field.width), fontSize: s.px(s.textSize),
            at: CanvasPoint(x: field.x + s.px(14), y: field.y + (field.height - placeholder.bounds.height) / 2),
            color: s.incomingTime)
        return subtitleFrame
    }

    // MARK: - Words

    /// The name a reply header shows for `message`'s author.
    func authorName(_ message: Message) -> String {
        if let author = message.authorId, author == accountPeerId { return names[author] ?? "You" }
        return message.authorId.flatMap { names[$0] } ?? (message.author as? TelegramUser)?.displayTitle ?? "them"
    }

    /// `hh:mm` in the screen's time zone.
    func time(_ message: Message) -> String {
        let seconds = (Int64(message.timestamp) + Int64(utcOffset)) % 86_400
        let local = seconds < 0 ? seconds + 86_400 : seconds
        return String(format: "%02d:%02d", local / 3600, local % 3600 / 60)
    }

    /// What a reply header quotes: the text, or what the media is.
    static func quote(_ message: Message) -> String {
        if !message.text.isEmpty { return message.text.replacingOccurrences(of: "\n", with: " ") }
        for media in message.media {
            if media is TelegramMediaImage { return "Photo" }
            if let file = media as? TelegramMediaFile {
                if file.isSticker {
                    let alt = file.attributes.compactMap { if case .sticker(let text, _, _) = $0 { text } else { nil } }
                        .first
                    return "\(alt.map { $0 + " " } ?? "")Sticker"
                }
                if file.isVoice { return "Voice message" }
                return file.fileName ?? "File"
            }
            if media is TelegramMediaAction { return TerminalChatRenderer.actionText(message) }
        }
        return "Message"
    }
}

/// A rendered chat screen.
public struct RenderedChatScreen: Sendable {
    public let pixels: CanvasPixels
    public let geometry: ChatScreenGeometry

    /// The screen as PNG bytes.
    public func png() throws(CanvasError) -> [UInt8] { try pixels.png() }
}
