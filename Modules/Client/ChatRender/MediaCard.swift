import Foundation
import Postbox
import SyncCore

/// The lines a card shows for a place, a contact, a die or a poll, with their styles (Telegram-iOS
/// `ChatMessageMapBubbleContentNode`, `ChatMessageContactBubbleContentNode`, `ChatMessagePollBubbleContentNode`, drawn
/// as text): both renderers lay them out like a message's text, above its caption.
///
/// - A place: 📍 and its coordinates (no map tiles offline), a venue's title in bold and its address, and for a live
///   location "live until HH:MM" (or "live until stopped").
/// - A contact: 👤 and the name in bold, the phone number.
/// - A die: the emoji and the value rolled.
/// - A link preview (under the text, not above it): a bar, the site name and title in bold, the description (the
///   terminal adds "▎[image]" for its picture; the PNG draws it: `PreviewPicture`).
/// - A poll: its kind, the question in bold, each answer — its share, ● for ours and a bar under it once we voted or
///   it closed (a quiz's right answer ✓, our wrong one ✗), ○ before — and "N votes".
/// - Media kept but not drawn by this version: its kind, dimmed in the terminal.
enum MediaCard {
    /// Bar cells for a whole answer.
    static let barCells = 10

    /// The card of `message`'s media, or `nil` when it has none to show as a card. `utcOffset` places the times; with
    /// `pictureLine`, a link preview with a picture ends with a "▎[image]" line (the terminal's stand-in for the
    /// picture the PNG draws).
    static func text(
        of message: Message, utcOffset: Int32, pictureLine: Bool = false
    ) -> (text: String, entities: [MessageTextEntity])? {
        var lines: [(String, bold: Bool)] = []
        for media in message.media {
            switch media {
            case let map as TelegramMediaMap:
                lines.append((String(format: "📍 %.5f, %.5f", map.latitude, map.longitude), false))
                if let venue = map.venue {
                    lines.append((venue.title, true))
                    if !venue.address.isEmpty { lines.append((venue.address, false)) }
                }
                if map.liveBroadcastingTimeout != nil {
                    let until = map.liveUntil(messageDate: message.timestamp)
                    lines.append(
                        (until.map { "live until " + clock($0, utcOffset: utcOffset) } ?? "live until stopped", false))
                }
            case let contact as TelegramMediaContact:
                lines.append(("👤 " + contact.displayName, true))
                lines.append((contact.phoneNumber, false))
            case let dice as TelegramMediaDice:
                lines.append((dice.emoji + " " + (dice.value.map(String.init) ?? "…"), true))
            case let poll as TelegramMediaPoll:
                lines += pollLines(poll)
            case let page as TelegramMediaWebpage where !page.isPending:
                // A link preview: the site name and title in bold, then the description (its picture: `PreviewPicture`).
                if let site = page.siteName, !site.isEmpty { lines.append(("▎" + site, true)) }
                if let title = page.title, !title.isEmpty { lines.append(("▎" + title, true)) }
                if let text = page.text, !text.isEmpty { lines.append(("▎" + text, false)) }
                if pictureLine, page.image != nil { lines.append(("▎[image]", false)) }
            default:
                continue
            }
        }
        guard !lines.isEmpty else { return nil }
        var text = ""
        var entities: [MessageTextEntity] = []
        for (index, line) in lines.enumerated() {
            if index > 0 { text += "\n" }
            let start = text.utf16.count
            text += line.0
            if line.bold, !line.0.isEmpty {
                entities.append(MessageTextEntity(range: start..<text.utf16.count, type: .bold))
            }
        }
        return (text, entities)
    }

    /// The card above the caption of `caption` (its text and entities, shifted under the card); with `below`, the
    /// card under it (a link preview).
    static func compose(
        card: (text: String, entities: [MessageTextEntity])?, caption: Message?, below: Bool = false
    ) -> (text: String, entities: [MessageTextEntity])? {
        let captionEntities =
            caption?.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
        guard let card else { return caption.map { ($0.text, captionEntities) } }
        guard let caption, !caption.text.isEmpty else { return card }
        if below {
            let offset = caption.text.utf16.count + 1
            return (
                caption.text + "\n" + card.text,
                captionEntities
                    + card.entities.map {
                        MessageTextEntity(
                            range: ($0.range.lowerBound + offset)..<($0.range.upperBound + offset), type: $0.type)
                    }
            )
        }
        let offset = card.text.utf16.count + 1
        return (
            card.text + "\n" + caption.text,
            card.entities
                + captionEntities.map {
                    MessageTextEntity(
                        range: ($0.range.lowerBound + offset)..<($0.range.upperBound + offset), type: $0.type)
                }
        )
    }

    /// A poll's lines: its kind, the question, the answers, the votes.
    static func pollLines(_ poll: TelegramMediaPoll) -> [(String, bold: Bool)] {
        let kind: String
        switch (poll.kind, poll.publicity) {
        case (.quiz, .anonymous): kind = "Anonymous quiz"
        case (.quiz, .public): kind = "Quiz"
        case (.poll, .anonymous): kind = "Anonymous poll"
        case (.poll, .public): kind = "Poll"
        }
        var lines: [(String, bold: Bool)] = [("📊 " + kind + (poll.isClosed ? " · final results" : ""), false)]
        lines.append((poll.text, true))
        let voters = poll.results.voters ?? []
        let total = voters.reduce(0) { $0 + Int($1.count ?? 0) }
        for option in poll.options {
            let result = voters.first { $0.opaqueIdentifier == option.opaqueIdentifier }
            guard poll.showsResults else {
                lines.append(("○ " + option.text, false))
                continue
            }
            let count = Int(result?.count ?? 0)
            let share = total == 0 ? 0 : Int((Double(count) * 100 / Double(total)).rounded())
            let filled = total == 0 ? 0 : Int((Double(count) * Double(barCells) / Double(total)).rounded())
            var mark = result?.selected == true ? "●" : "○"
            if poll.kind == .quiz {
                if result?.isCorrect == true { mark = "✓" } else if result?.selected == true { mark = "✗" }
            }
            // As Telegram's apps: the share and the answer, its bar under it.
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barCells - filled)
            lines.append(("\(mark) \(share)% \(option.text)", false))
            lines.append(("  " + bar, false))
        }
        let count = Int(poll.results.totalVoters ?? 0)
        lines.append((count == 1 ? "1 vote" : "\(count) votes", false))
        if poll.showsResults, let solution = poll.results.solution?.text, !solution.isEmpty {
            lines.append(("💡 " + solution, false))
        }
        return lines
    }

    /// What stands for media this version does not draw: the kind the server sent, kept whole in the message
    /// (`TelegramMediaUnsupported`).
    static func unsupportedLabel(_ message: Message) -> String {
        let kinds = message.media.compactMap { ($0 as? TelegramMediaUnsupported)?.constructor }
        guard let kind = kinds.first else { return "(a message this client cannot show)" }
        return "(\(kind): not shown by this version)"
    }

    /// `HH:MM` of `date` at `utcOffset`.
    static func clock(_ date: Int32, utcOffset: Int32) -> String {
        let seconds = (Int64(date) + Int64(utcOffset)) % 86_400
        let local = seconds < 0 ? seconds + 86_400 : seconds
        return String(format: "%02d:%02d", local / 3600, local % 3600 / 60)
    }
}
