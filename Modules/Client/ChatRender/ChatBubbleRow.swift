import AudioWaveform
import ChatHistory
import Foundation
import Postbox
import SyncCore
import TextLayout

/// A message bubble measured for the screen (Telegram-iOS `ChatMessageBubbleItemNode`'s stack, simplified): the
/// author's name, "Forwarded from NAME" (`ChatMessageForwardInfoNode`, on one line), the reply header, then the photo or album grid (edge to edge, `mediaInset` from the bubble), voice notes and files, the text
/// with the time on its last line when it fits (else on a line of its own), or the time in a pill over a photo with
/// no caption. Sizes are pixels.
struct ChatBubbleRow {
    let rows: ChatScreenRows
    let messages: [Message]
    let contents: [BubbleContent]
    let byId: [MessageId: Message]
    let mergedAbove: Bool
    let mergedBelow: Bool
    let status: OutgoingStatus?

    var style: ChatScreenStyle { rows.style }

    var row: ChatScreenRow {
        let s = style
        let first = messages[0]
        let outgoing = !MessageAuthorship.isIncoming(first)
        let accent = outgoing ? s.outgoingAccent : s.incomingAccent
        let fill = outgoing ? s.outgoingBubble : s.incomingBubble
        let timeColor = outgoing ? s.outgoingTime : s.incomingTime
        let padH = s.px(s.bubblePadding.horizontal), padV = s.px(s.bubblePadding.vertical)
        let mediaIds = contents.compactMap { if case .media(let id) = $0 { id } else { nil } }
        let voiceId = contents.compactMap { if case .voice(let id) = $0 { id } else { nil } }.first
        let fileId = contents.compactMap { if case .file(let id) = $0 { id } else { nil } }.first
        let textMessage = contents.compactMap { if case .text(let id) = $0 { byId[id] } else { nil } }.first
        // A place, contact, die or poll is drawn as its card's lines above the caption (`MediaCard`).
        // Media kept but not drawn by this version says what it is.
        let cardMessage = contents.compactMap { if case .card(let id) = $0 { byId[id] } else { nil } }.first
        let unsupported = contents.compactMap { if case .unsupported(let id) = $0 { byId[id] } else { nil } }.first
        let body = MediaCard.compose(
            card: cardMessage.flatMap { MediaCard.text(of: $0, utcOffset: rows.renderer.utcOffset) }
                ?? unsupported.map { (MediaCard.unsupportedLabel($0), []) },
            caption: textMessage,
            below: cardMessage?.media.contains { $0 is TelegramMediaWebpage } ?? false)
        let hasMedia = !mediaIds.isEmpty
        let textMax = s.maxBubbleWidth - 2 * padH
        // A link preview's picture, under its lines (`PreviewPicture`).
        let preview = body == nil ? nil : cardMessage.flatMap { PreviewPicture($0, textMax: textMax, style: s) }

        // The time and check marks.
        let timeText = (MessageAuthorship.postStatus(first).map { $0 + "  " } ?? "") + rows.renderer.time(first)
        let timeSize = s.px(s.timeSize)
        let timeLaid = TextLayout.layout(timeText, width: s.pixelWidth, fontSize: timeSize)
        let checks = status == nil ? 0 : s.px(16)
        let timeWidth = timeLaid.bounds.width + checks, timeHeight = timeLaid.bounds.height

        // The author's name: a group member's in their colour, a channel's title on its post (the first bubble of a
        // run only, as Telegram-iOS heads a merged run once).
        var author: (name: String, color: CanvasColor, height: Double)?
        if MessageAuthorship.showsName(first) && !mergedAbove {
            let name = Self.oneLine(
                MessageAuthorship.name(first, names: rows.renderer.names), width: textMax, fontSize: s.px(s.replySize))
            let bold = [MessageTextEntity(range: 0..<name.utf16.count, type: .bold)]
            let laid = TextLayout.layout(name, entities: bold, width: Int(textMax), fontSize: s.px(s.replySize))
            let color = CanvasColor(
                rgb: MessageAuthorship.nameColors[MessageAuthorship.colorIndex(first.authorId ?? first.id.peerId)])
            author = (name, color, laid.bounds.height)
        }

        // "Forwarded from NAME", the name in bold, in the side's accent.
        var forward: (text: String, entities: [MessageTextEntity], height: Double)?
        if let from = MessageAuthorship.forwardedFrom(first, names: rows.renderer.names) {
            let text = Self.oneLine("Forwarded from \(from)", width: textMax, fontSize: s.px(s.replySize))
            let prefix = "Forwarded from ".utf16.count
            let bold =
                text.utf16.count > prefix ? [MessageTextEntity(range: prefix..<text.utf16.count, type: .bold)] : []
            let laid = TextLayout.layout(text, entities: bold, width: Int(textMax), fontSize: s.px(s.replySize))
            forward = (text, bold, laid.bounds.height)
        }

        // The reply header.
        var reply: (author: String, quote: String, width: Double, height: Double)?
        if let attribute = first.attributes.compactMap({ $0 as? ReplyMessageAttribute }).first {
            let target = byId[attribute.messageId]
            let author = target.map(rows.renderer.authorName) ?? "Reply"
            let bold = [MessageTextEntity(range: 0..<author.utf16.count, type: .bold)]
            let size = s.px(s.replySize)
            let nameLaid = TextLayout.layout(author, entities: bold, width: Int(textMax), fontSize: size)
            let quote = Self.oneLine(
                target.map(ChatScreenRenderer.quote) ?? "a message", width: textMax - s.px(10), fontSize: size)
            let quoteLaid = TextLayout.layout(quote, width: Int(textMax), fontSize: size)
            reply = (
                author, quote, max(nameLaid.bounds.width, quoteLaid.bounds.width) + s.px(10),
                nameLaid.bounds.height + quoteLaid.bounds.height
            )
        }

        // The text.
        let entities = body?.entities ?? []
        let textSize = s.px(s.textSize)
        let laid = body.map {
            TextLayout.layout($0.text, entities: entities, width: Int(textMax), fontSize: textSize)
        }
        let gap = s.px(6)
        var timeOnLastLine = false
        var contentWidth = max(reply?.width ?? 0, laid?.bounds.width ?? 0)
        if let forward {
            contentWidth = max(
                contentWidth,
                TextLayout.layout(
                    forward.text, entities: forward.entities, width: Int(textMax), fontSize: s.px(s.replySize)
                ).bounds.width)
        }
        if let author {
            let bold = [MessageTextEntity(range: 0..<author.name.utf16.count, type: .bold)]
            contentWidth = max(
                contentWidth,
                TextLayout.layout(author.name, entities: bold, width: Int(textMax), fontSize: s.px(s.replySize)).bounds
                    .width)
        }
        if let laid, let last = laid.lines.last {
            if last.rect.maxX + gap + timeWidth <= textMax && !last.isRightToLeft {
                timeOnLastLine = true
                contentWidth = max(contentWidth, last.rect.maxX + gap + timeWidth)
            } else {
                contentWidth = max(contentWidth, timeWidth)
            }
        }
        if let preview {
            timeOnLastLine = false
            contentWidth = max(contentWidth, preview.width, timeWidth)
        }
        let voiceWidth = s.px(s.voiceButton + 8 + 150), voiceHeight = s.px(s.voiceButton)
        if voiceId != nil || fileId != nil { contentWidth = max(contentWidth, voiceWidth) }
        if !hasMedia && laid == nil { contentWidth = max(contentWidth, timeWidth) }

        // The bubble's width, the media grid and the stack's height.
        let bubbleWidth = hasMedia ? s.maxBubbleWidth : min(s.maxBubbleWidth, (contentWidth + 2 * padH).rounded(.up))
        let inset = s.px(s.mediaInset)
        let grid = hasMedia ? mediaGrid(mediaIds, width: bubbleWidth - 2 * inset) : []
        let gridHeight = grid.map(\.maxY).max() ?? 0
        var height = 0.0
        var replyTop = 0.0, mediaTop = 0.0, voiceTop = 0.0, textTop = 0.0, authorTop = 0.0, forwardTop = 0.0,
            previewTop = 0.0
        if let author {
            height += padV
            authorTop = height
            height += author.height
        }
        if let forward {
            height += author == nil ? padV : s.px(2)
            forwardTop = height
            height += forward.height
        }
        // Whatever heads the bubble before the media and the text.
        let headed = author != nil || forward != nil
        if let reply {
            height += headed ? s.px(2) : padV
            replyTop = height
            height += reply.height + s.px(4)
        }
        if hasMedia {
            height = reply == nil ? (headed ? height + s.px(4) : inset) : height
            mediaTop = height
            height += gridHeight
        }
        if voiceId != nil || fileId != nil {
            height += padV
            voiceTop = height
            height += voiceHeight + timeHeight * 0.4
        }
        if let laid {
            height += hasMedia ? padV : (reply == nil && !headed && voiceId == nil && fileId == nil ? padV : 0)
            textTop = height
            height += laid.bounds.height
            if let preview {
                height += s.px(6)
                previewTop = height
                height += preview.height + s.px(2)
            }
            if !timeOnLastLine { height += timeHeight }
            height += padV
        } else if hasMedia {
            height += inset
        } else if voiceId == nil && fileId == nil {
            height += padV + timeHeight + padV
        } else {
            height += padV
        }
        let totalHeight = height.rounded(.up)

        return ChatScreenRow(height: totalHeight, mergedAbove: mergedAbove) { canvas, top in
            let x =
                outgoing
                ? Double(s.pixelWidth) - s.px(s.sideMargin + s.tailWidth) - bubbleWidth
                : s.px(s.sideMargin + s.tailWidth)
            let frame = CanvasRect(x: x, y: top, width: bubbleWidth, height: totalHeight)
            let big = s.px(s.bubbleRadius), small = s.px(s.mergedRadius)
            let radii =
                outgoing
                ? CornerRadii(
                    topLeft: big, topRight: mergedAbove ? small : big, bottomRight: mergedBelow ? small : big,
                    bottomLeft: big)
                : CornerRadii(
                    topLeft: mergedAbove ? small : big, topRight: big, bottomRight: big,
                    bottomLeft: mergedBelow ? small : big)
            let tail: BubbleTail = mergedBelow ? .none : (outgoing ? .right : .left)
            canvas.fillBubble(frame, radii: radii, tail: tail, tailWidth: s.px(s.tailWidth), color: fill)
            var item = ChatScreenItem(
                content: .bubble(messages.map(\.id)), side: outgoing ? .outgoing : .incoming, frame: frame, fill: fill)
            item.hasTail = tail != .none

            if let author {
                let bold = [MessageTextEntity(range: 0..<author.name.utf16.count, type: .bold)]
                let origin = CanvasPoint(x: x + padH, y: top + authorTop)
                canvas.drawText(
                    author.name, entities: bold, width: Int(textMax), fontSize: s.px(s.replySize), at: origin,
                    color: author.color)
                item.authorName = author.name
                item.authorOrigin = origin
                item.authorColor = author.color
            }
            item.timeText = timeText

            if let forward {
                let origin = CanvasPoint(x: x + padH, y: top + forwardTop)
                canvas.drawText(
                    forward.text, entities: forward.entities, width: Int(textMax), fontSize: s.px(s.replySize),
                    at: origin, color: accent)
                item.forwardText = forward.text
                item.forwardOrigin = origin
            }

            if let reply {
                let bar = CanvasRect(x: x + padH, y: top + replyTop, width: s.px(2), height: reply.height)
                canvas.fill(bar, radii: .all(s.px(1)), color: accent)
                let size = s.px(s.replySize)
                let bold = [MessageTextEntity(range: 0..<reply.author.utf16.count, type: .bold)]
                let authorOrigin = CanvasPoint(x: bar.maxX + s.px(6), y: bar.y)
                canvas.drawText(
                    reply.author, entities: bold, width: Int(textMax), fontSize: size, at: authorOrigin, color: accent)
                let nameHeight = TextLayout.layout(reply.author, entities: bold, width: Int(textMax), fontSize: size)
                    .bounds.height
                let quoteOrigin = CanvasPoint(x: authorOrigin.x, y: bar.y + nameHeight)
                canvas.drawText(reply.quote, width: Int(textMax), fontSize: size, at: quoteOrigin, color: s.text)
                item.reply = ReplyHeaderGeometry(
                    bar: bar, authorOrigin: authorOrigin, quoteOrigin: quoteOrigin, author: reply.author,
                    quote: reply.quote)
            }

            if hasMedia {
                let outer = big - inset, inner = s.px(3)
                let atTop = reply == nil && !headed, atBottom = laid == nil
                let gridWidth = bubbleWidth - 2 * inset
                for (cell, id) in zip(grid, mediaIds) {
                    let rect = CanvasRect(
                        x: x + inset + cell.x, y: top + mediaTop + cell.y, width: cell.width, height: cell.height)
                    let left = cell.x < 1, right = cell.maxX > gridWidth - 1
                    let upper = cell.y < 1, lower = cell.maxY > gridHeight - 1
                    let cellRadii = CornerRadii(
                        topLeft: atTop && upper && left ? (outgoing || !mergedAbove ? outer : inner) : inner,
                        topRight: atTop && upper && right ? (!outgoing || !mergedAbove ? outer : inner) : inner,
                        bottomRight: atBottom && lower && right ? (outgoing && item.hasTail ? inner : outer) : inner,
                        bottomLeft: atBottom && lower && left ? (!outgoing && item.hasTail ? inner : outer) : inner)
                    let picture = rows.media.pictures[id]
                    let badge = byId[id]?.media.lazy.compactMap { $0 as? TelegramMediaFile }.first.flatMap(
                        VideoBadge.init)
                    // A round video is a circle in its cell.
                    let radii = badge?.kind == .round ? .all(min(rect.width, rect.height) / 2) : cellRadii
                    if let picture {
                        canvas.draw(picture.image, in: rect, mode: .fill, radii: radii)
                    } else {
                        canvas.fill(rect, radii: radii, color: s.placeholder)
                    }
                    var cell = MediaCellGeometry(messageId: id, rect: rect, drawn: picture?.stage)
                    if let badge {
                        cell.badge = badge
                        cell.badgeFrame = badge.draw(&canvas, in: rect, style: s)
                    }
                    item.mediaCells.append(cell)
                }
                if laid == nil {
                    rows.timePill(
                        &canvas, first, status: status,
                        bottomRight: CanvasPoint(x: x + inset + gridWidth, y: top + mediaTop + gridHeight),
                        into: &item)
                }
            }

            if let id = voiceId ?? fileId, let message = byId[id] {
                let origin = CanvasPoint(x: x + padH, y: top + voiceTop)
                let drawn =
                    voiceId != nil
                    ? drawVoice(&canvas, message, at: origin, accent: accent, fill: fill, timeColor: timeColor)
                    : drawFile(&canvas, message, at: origin, accent: accent, timeColor: timeColor)
                item.waveformBars = drawn
                item.waveformColor = drawn.isEmpty ? nil : accent
                if laid == nil {
                    let timeOrigin = CanvasPoint(
                        x: frame.maxX - padH - timeWidth, y: frame.maxY - padV - timeHeight)
                    drawTime(
                        &canvas, timeText, at: timeOrigin, color: timeColor, width: timeLaid.bounds.width, into: &item)
                }
            }

            if let laid, let body {
                // A right-to-left paragraph's lines sit at the right of the `textMax` box: move the box so that the
                // text's extents (`bounds.x` onwards) start at the padding, inside a bubble as wide as the text.
                let origin = CanvasPoint(x: x + padH - laid.bounds.x, y: top + textTop)
                canvas.drawText(
                    body.text, entities: entities, width: Int(textMax), fontSize: textSize, at: origin, color: s.text
                )
                item.textOrigin = origin
                item.textLines = laid.lineCount
            }
            if let preview {
                let rect = CanvasRect(x: x + padH, y: top + previewTop, width: preview.width, height: preview.height)
                let picture = rows.media.pictures[preview.messageId]
                let radii = CornerRadii.all(s.px(preview.large ? 6 : 4))
                if let picture {
                    canvas.draw(picture.image, in: rect, mode: .fill, radii: radii)
                } else {
                    canvas.fill(rect, radii: radii, color: s.placeholder)
                }
                item.mediaCells.append(
                    MediaCellGeometry(messageId: preview.messageId, rect: rect, drawn: picture?.stage))
            }
            if laid != nil || (!hasMedia && voiceId == nil && fileId == nil) {
                let timeOrigin = CanvasPoint(
                    x: frame.maxX - padH - timeWidth, y: frame.maxY - padV - timeHeight + s.px(2))
                drawTime(
                    &canvas, timeText, at: timeOrigin, color: timeColor, width: timeLaid.bounds.width, into: &item)
            }
            return item
        }
    }

    /// The time at `origin` and our status marks after it, both recorded in `item`.
    private func drawTime(
        _ canvas: inout Canvas, _ text: String, at origin: CanvasPoint, color: CanvasColor, width: Double,
        into item: inout ChatScreenItem
    ) {
        let s = style
        canvas.drawText(text, width: s.pixelWidth, fontSize: s.px(s.timeSize), at: origin, color: color)
        item.timeOrigin = origin
        if let status {
            let height = TextLayout.layout(text, width: s.pixelWidth, fontSize: s.px(s.timeSize)).bounds.height
            item.status = status
            item.statusFrame = rows.drawStatus(
                &canvas, status, x: origin.x + width + s.px(3), midY: origin.y + height / 2, color: color)
        }
    }

    /// A voice note: the round play button, the waveform (AudioWaveform's 5-bit samples, bottom-aligned bars from
    /// `minHeight` to `maxHeight`) and the duration under it; returns the bars.
    private func drawVoice(
        _ canvas: inout Canvas, _ message: Message, at origin: CanvasPoint, accent: CanvasColor, fill: CanvasColor,
        timeColor: CanvasColor
    ) -> [CanvasRect] {
        let s = style
        let button = s.px(s.voiceButton)
        canvas.fillCircle(
            center: CanvasPoint(x: origin.x + button / 2, y: origin.y + button / 2), radius: button / 2, color: accent)
        // The play triangle.
        let cx = origin.x + button / 2 + s.px(1.5), cy = origin.y + button / 2, t = s.px(8)
        canvas.fillPolygon(
            [
                CanvasPoint(x: cx - t * 0.55, y: cy - t), CanvasPoint(x: cx + t * 0.85, y: cy),
                CanvasPoint(x: cx - t * 0.55, y: cy + t),
            ],
            color: fill)
        let file = message.media.compactMap { $0 as? TelegramMediaFile }.first
        var duration: Int32 = 0
        var bitstream: [UInt8] = []
        for case .audio(_, let seconds, _, _, let waveform) in file?.attributes ?? [] {
            duration = seconds
            bitstream = waveform ?? []
        }
        let samples = bitstream.isEmpty ? [] : AudioWaveform(bitstream: bitstream).samples
        let bar = s.waveformBar
        let left = origin.x + button + s.px(8)
        let available = s.px(150)
        let count = Int((available + s.px(bar.gap)) / s.px(bar.width + bar.gap))
        let peak = Double(max(1, samples.max() ?? 1))
        let baseline = origin.y + s.px(bar.maxHeight) + s.px(2)
        var bars: [CanvasRect] = []
        for index in 0..<count {
            let value: Double
            if samples.isEmpty {
                value = 0
            } else {
                // The bucket's peak, so a narrow spike still shows.
                let from = index * samples.count / count, to = max(from + 1, (index + 1) * samples.count / count)
                value = Double(samples[from..<min(to, samples.count)].max() ?? 0) / peak
            }
            let height = s.px(bar.minHeight) + value * s.px(bar.maxHeight - bar.minHeight)
            let rect = CanvasRect(
                x: left + Double(index) * s.px(bar.width + bar.gap), y: baseline - height, width: s.px(bar.width),
                height: height)
            canvas.fill(rect, radii: .all(s.px(bar.width) / 2), color: accent)
            bars.append(rect)
        }
        let label = String(format: "%d:%02d", duration / 60, duration % 60)
        canvas.drawText(
            label, width: Int(available), fontSize: s.px(s.timeSize), at: CanvasPoint(x: left, y: baseline + s.px(4)),
            color: timeColor)
        return bars
    }

    /// A document: a round icon in the accent, its name and size.
    private func drawFile(
        _ canvas: inout Canvas, _ message: Message, at origin: CanvasPoint, accent: CanvasColor, timeColor: CanvasColor
    ) -> [CanvasRect] {
        let s = style
        let button = s.px(s.voiceButton)
        canvas.fillCircle(
            center: CanvasPoint(x: origin.x + button / 2, y: origin.y + button / 2), radius: button / 2, color: accent)
        let file = message.media.compactMap { $0 as? TelegramMediaFile }.first
        let name = Self.oneLine(file?.fileName ?? "File", width: s.px(150), fontSize: s.px(16))
        let bold = [MessageTextEntity(range: 0..<name.utf16.count, type: .bold)]
        let left = origin.x + button + s.px(8)
        canvas.drawText(
            name, entities: bold, width: Int(s.px(150)), fontSize: s.px(16),
            at: CanvasPoint(x: left, y: origin.y + s.px(2)), color: s.text)
        let size = file?.size.map { ByteCountFormatter.string(fromByteCount: $0, countStyle: .file) } ?? ""
        canvas.drawText(
            size, width: Int(s.px(150)), fontSize: s.px(s.timeSize), at: CanvasPoint(x: left, y: origin.y + s.px(24)),
            color: timeColor)
        return []
    }

    /// The cells of a photo or an album, relative to the grid's top left, `width` wide: one photo at its aspect
    /// (between 1:2 landscape and 4:3 portrait), an album as rows of up to three (the remainder on the first row; a
    /// one-cell row at 2:1, two cells at 4:3, three square).
    private func mediaGrid(_ ids: [MessageId], width: Double) -> [CanvasRect] {
        let s = style
        if ids.count == 1 {
            let aspect = Self.aspect(of: byId[ids[0]], picture: rows.media.pictures[ids[0]])
            let height = (width / aspect).clamped(to: width * 0.5...width * 4 / 3)
            return [CanvasRect(x: 0, y: 0, width: width, height: height.rounded())]
        }
        let counts: [Int] = {
            switch ids.count {
            case 2: return [2]
            case 3: return [1, 2]
            case 4: return [2, 2]
            default:
                let full = ids.count / 3, rest = ids.count % 3
                return (rest == 0 ? [] : [rest]) + Array(repeating: 3, count: full)
            }
        }()
        let spacing = s.px(s.albumSpacing)
        var cells: [CanvasRect] = []
        var y = 0.0
        for count in counts {
            let cellWidth = (width - Double(count - 1) * spacing) / Double(count)
            let height = (count == 1 ? width / 2 : count == 2 ? cellWidth * 3 / 4 : cellWidth).rounded()
            for index in 0..<count {
                cells.append(
                    CanvasRect(x: Double(index) * (cellWidth + spacing), y: y, width: cellWidth, height: height))
            }
            y += height + spacing
        }
        return cells
    }

    /// Width over height of a message's picture: the photo's largest size, a picture file's dimensions, else the
    /// picture drawn.
    private static func aspect(of message: Message?, picture: ChatPicture?) -> Double {
        if let image = message?.media.compactMap({ $0 as? TelegramMediaImage }).first,
            let size = image.largestRepresentation?.dimensions, size.width > 0, size.height > 0
        {
            return Double(size.width) / Double(size.height)
        }
        if let file = message?.media.compactMap({ $0 as? TelegramMediaFile }).first {
            for case .imageSize(let size) in file.attributes where size.width > 0 && size.height > 0 {
                return Double(size.width) / Double(size.height)
            }
        }
        if let picture { return Double(picture.image.width) / Double(picture.image.height) }
        return 4.0 / 3.0
    }

    /// `text` shortened with "…" to one line of `width` pixels at `fontSize`.
    static func oneLine(_ text: String, width: Double, fontSize: Double) -> String {
        func fits(_ candidate: String) -> Bool {
            TextLayout.layout(candidate, width: 100_000, fontSize: fontSize).bounds.width <= width
        }
        if fits(text) { return text }
        var characters = Array(text)
        // Start near the first line's break, then drop characters until it fits.
        let firstLine =
            TextLayout.layout(text, width: max(1, Int(width)), fontSize: fontSize).lines.first?.range.upperBound ?? 0
        var kept = 0, utf16 = 0
        for character in characters {
            if utf16 + character.utf16.count > firstLine { break }
            utf16 += character.utf16.count
            kept += 1
        }
        characters = Array(characters.prefix(kept))
        while !characters.isEmpty {
            let candidate = String(characters).trimmingCharacters(in: .whitespaces) + "…"
            if fits(candidate) { return candidate }
            characters.removeLast()
        }
        return "…"
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
