import ChatHistory
import Foundation
import Postbox
import SyncCore
import TextLayout

/// One measured row of the screen: its height in pixels, whether it merges with the row above (the same author's
/// previous message, within `mergeWindow`), and how to draw it with its top at a given y.
struct ChatScreenRow {
    var height: Double
    var mergedAbove: Bool
    var draw: (inout Canvas, Double) -> ChatScreenItem
}

/// The rows of a screen's entries, oldest first: pills, the separator, bubbles, stickers and large emoji measured
/// for the style's width (Telegram-iOS merges a message with its neighbour by the same author within 10 minutes,
/// `ChatMessageItemImpl.mergedWithItems`; here the same rule, with no header between them).
struct ChatScreenRows {
    let renderer: ChatScreenRenderer
    let entries: [ChatHistoryEntry]
    let media: ChatMedia
    var style: ChatScreenStyle { renderer.style }

    /// Messages of one author this close together merge (seconds).
    static let mergeWindow: Int32 = 600

    var rows: [ChatScreenRow] {
        let byId = Dictionary(entries.flatMap(\.messages).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [ChatScreenRow] = []
        for (index, entry) in entries.enumerated() {
            switch entry {
            case .dateHeader(let day, _):
                result.append(pill(TerminalChatRenderer.dayName(day), content: .dateHeader(day: day)))
            case .unread:
                result.append(unreadBar())
            case .loading:
                result.append(pill("Loading…", content: .loading))
            case .message, .group:
                guard !entry.messages.isEmpty else { continue }
                let above = index > 0 ? merges(entries[index - 1], entry) : false
                let below = index + 1 < entries.count ? merges(entry, entries[index + 1]) : false
                result.append(item(entry, mergedAbove: above, mergedBelow: below, byId: byId))
            }
        }
        return result
    }

    /// Whether `newer` continues `older`'s run: both messages (not service ones) by the same author, close in time.
    private func merges(_ older: ChatHistoryEntry, _ newer: ChatHistoryEntry) -> Bool {
        guard let a = older.messages.first, let b = newer.messages.first else { return false }
        let service = { (message: Message) in message.media.contains { $0 is TelegramMediaAction } }
        return a.authorId == b.authorId && MessageAuthorship.isIncoming(a) == MessageAuthorship.isIncoming(b)
            && !service(a)
            && !service(b) && abs(b.timestamp - a.timestamp) < Self.mergeWindow
    }

    // MARK: - Pills and the separator

    private func pill(_ text: String, content: ChatScreenItem.Content) -> ChatScreenRow {
        let s = style
        let size = s.px(s.headerSize)
        let bold = [MessageTextEntity(range: 0..<text.utf16.count, type: .bold)]
        let maxWidth = Int(Double(s.pixelWidth) - s.px(40))
        let laid = TextLayout.layout(text, entities: bold, width: maxWidth, fontSize: size)
        let width = laid.lines.map(\.rect.width).max() ?? 0
        let pillWidth = width + s.px(20), pillHeight = laid.bounds.height + s.px(6)
        return ChatScreenRow(height: pillHeight, mergedAbove: false) { canvas, top in
            let frame = CanvasRect(
                x: (Double(s.pixelWidth) - pillWidth) / 2, y: top, width: pillWidth, height: pillHeight)
            canvas.fill(frame, radii: .all(pillHeight / 2), color: s.pill)
            let origin = CanvasPoint(x: frame.x + s.px(10), y: top + s.px(3))
            canvas.drawText(
                text, entities: bold, width: Int(width.rounded(.up)) + 1, fontSize: size, at: origin, color: s.pillText)
            var item = ChatScreenItem(content: content, side: .centre, frame: frame, fill: s.pill)
            item.textOrigin = origin
            item.textLines = laid.lineCount
            return item
        }
    }

    private func unreadBar() -> ChatScreenRow {
        let s = style
        let text = "Unread messages"
        let size = s.px(s.headerSize)
        let laid = TextLayout.layout(text, width: s.pixelWidth, fontSize: size)
        let height = s.px(26)
        return ChatScreenRow(height: height, mergedAbove: false) { canvas, top in
            let frame = CanvasRect(x: 0, y: top, width: Double(s.pixelWidth), height: height)
            canvas.fill(frame, color: s.unreadBar)
            let origin = CanvasPoint(
                x: (frame.width - laid.bounds.width) / 2, y: top + (height - laid.bounds.height) / 2)
            canvas.drawText(text, width: s.pixelWidth, fontSize: size, at: origin, color: s.unreadText)
            var item = ChatScreenItem(content: .unread, side: .centre, frame: frame, fill: s.unreadBar)
            item.textOrigin = origin
            item.textLines = laid.lineCount
            return item
        }
    }

    // MARK: - Message items

    private func item(
        _ entry: ChatHistoryEntry, mergedAbove: Bool, mergedBelow: Bool, byId: [MessageId: Message]
    ) -> ChatScreenRow {
        let messages = entry.messages
        let first = messages[0]
        let status = OutgoingStatus.of(entry)
        let row: ChatScreenRow
        switch ChatMessageItemClassifier.kind(of: messages) {
        case .sticker, .animatedSticker:
            row = sticker(first, mergedAbove: mergedAbove, status: status)
        case .largeEmoji:
            row = largeEmoji(first, mergedAbove: mergedAbove, status: status)
        case .bubble(let contents):
            if contents.count == 1, case .action = contents[0] {
                return pill(
                    TerminalChatRenderer.actionText(first, names: renderer.names, byId: byId),
                    content: .service(first.id))
            }
            row =
                ChatBubbleRow(
                    rows: self, messages: messages, contents: contents, byId: byId, mergedAbove: mergedAbove,
                    mergedBelow: mergedBelow, status: status
                ).row
        }
        return ReactionChips(messages)?.under(row, style: style) ?? row
    }

    /// A sticker's first frame in a square on its side, the time in a pill at its bottom right.
    private func sticker(_ message: Message, mergedAbove: Bool, status: OutgoingStatus?) -> ChatScreenRow {
        let s = style
        let side = s.px(s.stickerSide)
        let outgoing = !MessageAuthorship.isIncoming(message)
        let picture = media.pictures[message.id]
        return ChatScreenRow(height: side, mergedAbove: mergedAbove) { canvas, top in
            let x =
                outgoing
                ? Double(s.pixelWidth) - s.px(s.sideMargin + s.tailWidth) - side : s.px(s.sideMargin + s.tailWidth)
            let frame = CanvasRect(x: x, y: top, width: side, height: side)
            if let picture {
                canvas.draw(picture.image, in: frame, mode: .fit)
            } else {
                canvas.fill(frame, radii: .all(side / 2), color: CanvasColor(rgb: 0xFFFFFF, alpha: 0.4))
            }
            var item = ChatScreenItem(
                content: .sticker(message.id), side: outgoing ? .outgoing : .incoming, frame: frame, fill: nil)
            item.mediaCells = [MediaCellGeometry(messageId: message.id, rect: frame, drawn: picture?.stage)]
            timePill(
                &canvas, message, status: status, bottomRight: CanvasPoint(x: frame.maxX, y: frame.maxY), into: &item)
            return item
        }
    }

    /// One to three emoji, large, without a bubble.
    private func largeEmoji(_ message: Message, mergedAbove: Bool, status: OutgoingStatus?) -> ChatScreenRow {
        let s = style
        let outgoing = !MessageAuthorship.isIncoming(message)
        let size = s.px(s.largeEmojiSize)
        let laid = TextLayout.layout(message.text, width: Int(s.maxBubbleWidth), fontSize: size)
        let width = laid.bounds.width, pillHeight = s.px(s.timeSize + 16)  // the time pill just under the emoji
        return ChatScreenRow(height: laid.bounds.height + pillHeight, mergedAbove: mergedAbove) { canvas, top in
            let x =
                outgoing
                ? Double(s.pixelWidth) - s.px(s.sideMargin + s.tailWidth) - width : s.px(s.sideMargin + s.tailWidth)
            let frame = CanvasRect(x: x, y: top, width: width, height: laid.bounds.height)
            canvas.drawText(
                message.text, width: Int(s.maxBubbleWidth), fontSize: size, at: CanvasPoint(x: x, y: top), color: s.text
            )
            var item = ChatScreenItem(
                content: .largeEmoji(message.id), side: outgoing ? .outgoing : .incoming, frame: frame, fill: nil)
            item.textOrigin = CanvasPoint(x: x, y: top)
            item.textLines = laid.lineCount
            timePill(
                &canvas, message, status: status, bottomRight: CanvasPoint(x: frame.maxX, y: frame.maxY + pillHeight),
                into: &item)
            return item
        }
    }

    /// The time (and our status marks) in white on a translucent pill whose bottom right is `bottomRight` less a
    /// margin; records where the time and the marks are in `item`.
    func timePill(
        _ canvas: inout Canvas, _ message: Message, status: OutgoingStatus?, bottomRight: CanvasPoint,
        into item: inout ChatScreenItem
    ) {
        let s = style
        let text = renderer.time(message)
        let size = s.px(s.timeSize)
        let laid = TextLayout.layout(text, width: s.pixelWidth, fontSize: size)
        let marks = status == nil ? 0 : s.px(16)
        let width = laid.bounds.width + marks + s.px(12), height = laid.bounds.height + s.px(4)
        let frame = CanvasRect(
            x: bottomRight.x - s.px(6) - width, y: bottomRight.y - s.px(6) - height, width: width, height: height)
        canvas.fill(frame, radii: .all(height / 2), color: CanvasColor(rgb: 0x000000, alpha: 0.4))
        let origin = CanvasPoint(x: frame.x + s.px(6), y: frame.y + s.px(2))
        canvas.drawText(text, width: s.pixelWidth, fontSize: size, at: origin, color: s.pillText)
        item.timeOrigin = origin
        if let status {
            item.status = status
            item.statusFrame = drawStatus(
                &canvas, status, x: origin.x + laid.bounds.width + s.px(3), midY: frame.y + height / 2,
                color: s.pillText)
        }
    }

    /// The marks of `status` in `color`, `s.px(13)` wide at most from `x`, centred on `midY`; returns the box they
    /// are drawn in. Telegram-iOS draws them as images (`ChatMessageDateAndStatusNode`: `checkSentNode` and
    /// `checkReadNode`, the second check offset to the right; a clock while sending); here they are strokes: one
    /// check (sent), two (read), a clock face with two hands (sending), a red disc with a white bar (failed).
    func drawStatus(
        _ canvas: inout Canvas, _ status: OutgoingStatus, x: Double, midY: Double, color: CanvasColor
    ) -> CanvasRect {
        let s = style
        let w = s.px(9), h = s.px(7), stroke = s.px(1.3)
        switch status {
        case .sent, .read:
            for offset in status == .read ? [0.0, s.px(4)] : [0.0] {
                let left = x + offset, top = midY - h / 2
                if offset == 0 {
                    canvas.line(
                        from: CanvasPoint(x: left, y: top + h * 0.55), to: CanvasPoint(x: left + w * 0.35, y: top + h),
                        width: stroke, color: color)
                }
                canvas.line(
                    from: CanvasPoint(x: left + w * 0.35, y: top + h), to: CanvasPoint(x: left + w, y: top),
                    width: stroke, color: color)
            }
            let width = w + (status == .read ? s.px(4) : 0)
            return CanvasRect(
                x: x - stroke / 2, y: midY - h / 2 - stroke / 2, width: width + stroke, height: h + stroke)
        case .sending:
            let radius = s.px(4.5), centre = CanvasPoint(x: x + radius, y: midY), segments = 16
            for i in 0..<segments {
                let a = Double(i) / Double(segments) * 2 * .pi, b = Double(i + 1) / Double(segments) * 2 * .pi
                canvas.line(
                    from: CanvasPoint(x: centre.x + radius * cos(a), y: centre.y + radius * sin(a)),
                    to: CanvasPoint(x: centre.x + radius * cos(b), y: centre.y + radius * sin(b)), width: stroke,
                    color: color)
            }
            canvas.line(
                from: centre, to: CanvasPoint(x: centre.x, y: centre.y - radius * 0.6), width: stroke, color: color)
            canvas.line(
                from: centre, to: CanvasPoint(x: centre.x + radius * 0.5, y: centre.y), width: stroke, color: color)
            return CanvasRect(
                x: x - stroke / 2, y: midY - radius - stroke / 2, width: 2 * radius + stroke,
                height: 2 * radius + stroke)
        case .failed:
            let radius = s.px(5), centre = CanvasPoint(x: x + radius, y: midY)
            canvas.fillCircle(center: centre, radius: radius, color: s.failedMark)
            canvas.line(
                from: CanvasPoint(x: centre.x, y: centre.y - radius * 0.5),
                to: CanvasPoint(x: centre.x, y: centre.y + radius * 0.5), width: stroke,
                color: CanvasColor(rgb: 0xFFFFFF))
            return CanvasRect(x: x, y: midY - radius, width: 2 * radius, height: 2 * radius)
        }
    }
}
