import Postbox
import SyncCore
public import TextLayout

/// The reactions drawn under a message (Telegram-iOS `ChatMessageReactionButtonsNode`: one button per emoji with its
/// count, ours highlighted): from the first of the row's messages that has a `ReactionsMessageAttribute`, in the
/// server's order (most first).
struct ReactionChips: Equatable {
    struct Chip: Equatable {
        var emoticon: String
        var count: Int32
        var chosen: Bool

        var label: String { "\(emoticon) \(count)" }
    }

    var chips: [Chip]

    /// `nil` when none of `messages` has reactions.
    init?(_ messages: [Message]) {
        guard let attribute = messages.lazy.compactMap(\.reactionsAttribute).first else { return nil }
        chips = attribute.reactions.map { Chip(emoticon: $0.emoticon, count: $0.count, chosen: $0.isChosen) }
    }

    /// One terminal line: `👍 2  [❤ 1]`, ours in brackets (and in reverse video with `colors`).
    func terminalLine(colors: Bool) -> String {
        chips.map { chip in
            guard chip.chosen else { return chip.label }
            let marked = "[" + chip.label + "]"
            return colors ? "\u{1B}[1;7m" + marked + TerminalStyle.reset : marked
        }.joined(separator: "  ")
    }

    // MARK: - The PNG

    /// Each chip's size in pixels, laid out left to right in lines no wider than `maxWidth`: the chips' frames relative
    /// to the strip's top left, and the strip's size.
    func layout(_ s: ChatScreenStyle, maxWidth: Double) -> (frames: [CanvasRect], width: Double, height: Double) {
        let size = s.px(s.reactionSize), padH = s.px(8), gap = s.px(6), chipHeight = s.px(s.reactionSize + 12)
        var frames: [CanvasRect] = []
        var x = 0.0, y = 0.0, width = 0.0
        for chip in chips {
            let textWidth = TextLayout.layout(chip.label, width: 100_000, fontSize: size).bounds.width
            let chipWidth = (textWidth + 2 * padH).rounded(.up)
            if x > 0 && x + chipWidth > maxWidth {
                x = 0
                y += chipHeight + gap
            }
            frames.append(CanvasRect(x: x, y: y, width: chipWidth, height: chipHeight))
            x += chipWidth + gap
            width = max(width, x - gap)
        }
        return (frames, width, frames.isEmpty ? 0 : y + chipHeight)
    }

    /// `row` with the chips under what it draws, on its side: the strip starts `s.px(4)` under the row's item and
    /// lines up with its left edge (incoming) or right edge (ours); the chips are recorded in the item.
    func under(_ row: ChatScreenRow, style s: ChatScreenStyle) -> ChatScreenRow {
        let (frames, stripWidth, stripHeight) = layout(s, maxWidth: s.maxBubbleWidth)
        let gap = s.px(4)
        let size = s.px(s.reactionSize)
        return ChatScreenRow(height: row.height + gap + stripHeight, mergedAbove: row.mergedAbove) { canvas, top in
            var item = row.draw(&canvas, top)
            let left =
                item.side == .outgoing ? item.frame.maxX - stripWidth : item.frame.x
            let stripTop = top + row.height + gap
            for (chip, frame) in zip(chips, frames) {
                let rect = CanvasRect(
                    x: left + frame.x, y: stripTop + frame.y, width: frame.width, height: frame.height)
                canvas.fill(rect, radii: .all(rect.height / 2), color: chip.chosen ? s.reactionChosen : s.reactionChip)
                let laid = TextLayout.layout(chip.label, width: 100_000, fontSize: size)
                let origin = CanvasPoint(
                    x: rect.x + (rect.width - laid.bounds.width) / 2, y: rect.y + (rect.height - laid.bounds.height) / 2
                )
                canvas.drawText(
                    chip.label, width: Int(rect.width), fontSize: size, at: origin,
                    color: chip.chosen ? s.reactionChosenText : s.reactionText)
                item.reactions.append(
                    ReactionChipGeometry(emoticon: chip.emoticon, count: chip.count, chosen: chip.chosen, frame: rect))
            }
            return item
        }
    }
}

/// One reaction drawn under a message: the emoji, its count, whether it is ours (highlighted) and its chip's box.
public struct ReactionChipGeometry: Sendable, Equatable {
    public var emoticon: String
    public var count: Int32
    public var chosen: Bool
    public var frame: CanvasRect
}
