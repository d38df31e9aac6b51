import AudioWaveform
public import ChatHistory
import Foundation
public import Postbox
import SyncCore

/// A chat drawn in a terminal from its history entries: incoming bubbles on the left, ours on the right, at most three
/// quarters of the width; entity styles as ANSI attributes; reply headers; an album as a row of photo cells; a voice
/// note's waveform in block characters; stickers and large emoji without a bubble; date headers, the unread separator
/// and service messages centred. Widths are terminal columns (`DisplayWidth`, utf8proc), so CJK and emoji line up.
public struct TerminalChatRenderer: Sendable {
    /// The terminal's width in columns.
    public var width: Int
    /// This account: its messages are drawn on the right.
    public var accountPeerId: PeerId
    /// Names shown in reply headers and forwards.
    public var names: [PeerId: String]
    /// The time zone for times and date headers, in seconds east of UTC.
    public var utcOffset: Int32
    /// Whether to emit ANSI colours and styles.
    public var colors: Bool

    public init(
        width: Int, accountPeerId: PeerId, names: [PeerId: String] = [:], utcOffset: Int32 = 0, colors: Bool = true
    ) {
        self.width = max(20, width)
        self.accountPeerId = accountPeerId
        self.names = names
        self.utcOffset = utcOffset
        self.colors = colors
    }

    /// The lines of `entries` (oldest first, as `ChatHistoryEntries.make` builds them), top to bottom.
    public func render(_ entries: [ChatHistoryEntry]) -> [String] {
        let byId = Dictionary(entries.flatMap(\.messages).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        var previous: Message?
        for entry in entries {
            switch entry {
            case .loading:
                lines.append(centred("… loading …"))
                previous = nil
            case .dateHeader(let day, _):
                lines.append(centred("── \(Self.dayName(day)) ──"))
                previous = nil
            case .unread:
                lines.append(centred("── unread messages ──"))
                previous = nil
            case .message, .group:
                let first = entry.messages.first
                lines += item(
                    entry.messages, status: OutgoingStatus.of(entry), byId: byId,
                    continuesRun: first.map { Self.continues(previous, $0) } ?? false)
                if let chips = ReactionChips(entry.messages), let first, !Self.isService(first) {
                    lines += place([chips.terminalLine(colors: colors)], outgoing: !MessageAuthorship.isIncoming(first))
                }
                previous = first
            }
        }
        return lines
    }

    // MARK: - Items

    /// Whether `message` continues `previous`'s run (the same author on the same side within 10 minutes, neither a
    /// service message), so its bubble needs no name over it (Telegram-iOS names a merged run once).
    static func continues(_ previous: Message?, _ message: Message) -> Bool {
        guard let previous else { return false }
        let service = { (message: Message) in message.media.contains { $0 is TelegramMediaAction } }
        return previous.authorId == message.authorId
            && MessageAuthorship.isIncoming(previous) == MessageAuthorship.isIncoming(message) && !service(previous)
            && !service(message) && abs(message.timestamp - previous.timestamp) < 600
    }

    /// Whether `message` is a service message (drawn centred, without reactions).
    static func isService(_ message: Message) -> Bool { message.media.contains { $0 is TelegramMediaAction } }

    private func item(
        _ messages: [Message], status outgoingStatus: OutgoingStatus?, byId: [MessageId: Message], continuesRun: Bool
    ) -> [String] {
        guard let first = messages.first else { return [] }
        let outgoing = !MessageAuthorship.isIncoming(first)
        let status = MessageAuthorship.postStatus(first).map { $0 + "  " } ?? ""
        let footer = status + time(first) + (outgoingStatus.map { " " + $0.terminalMarks } ?? "")
        switch ChatMessageItemClassifier.kind(of: messages) {
        case .largeEmoji:
            return place([first.text, dimmed(footer)], outgoing: outgoing)
        case .sticker, .animatedSticker:
            let file = first.media.compactMap { $0 as? TelegramMediaFile }.first
            let alt =
                file?.attributes.compactMap { if case .sticker(let text, _, _) = $0 { text } else { nil } }.first ?? ""
            return place(["[sticker \(alt)]", dimmed(footer)], outgoing: outgoing)
        case .bubble(let contents):
            if contents.count == 1, case .action = contents[0] {
                return [centred("· \(Self.actionText(first, names: names, byId: byId)) ·")]
            }
            let inner = width * 3 / 4 - 4
            var body: [String] = []
            if MessageAuthorship.showsName(first) && !continuesRun {
                body.append(authorLine(first, width: inner))
            }
            if let reply = first.attributes.compactMap({ $0 as? ReplyMessageAttribute }).first {
                let target = byId[reply.messageId]
                let who = target.map { name(of: $0) } ?? "a message"
                let snippet =
                    target.map { truncated($0.text.isEmpty ? "media" : $0.text, to: inner - DisplayWidth.of(who) - 4) }
                    ?? ""
                body.append(dimmed("┃ \(who): \(snippet)"))
            }
            if let from = MessageAuthorship.forwardedFrom(first, names: names) {
                body.append(dimmed(truncated("Forwarded from \(from)", to: inner)))
            }
            let photos = contents.filter { if case .media = $0 { true } else { false } }.count
            if photos > 1 {
                body.append(Array(repeating: "[photo]", count: photos).joined(separator: " "))
            }
            for content in contents {
                switch content {
                case .media(let id) where photos == 1:
                    body.append(Self.mediaLabel(byId[id] ?? first))
                case .file(let id):
                    body.append(Self.fileLabel(byId[id] ?? first))
                case .voice(let id):
                    body.append(voiceLabel(byId[id] ?? first, width: inner))
                case .text(let id):
                    let message = byId[id] ?? first
                    body += wrap(message.text, entities: Self.entities(of: message), width: inner)
                case .card(let id):
                    if let card = MediaCard.text(of: byId[id] ?? first, utcOffset: utcOffset, pictureLine: true) {
                        body += wrap(card.text, entities: card.entities, width: inner)
                    }
                case .unsupported(let id):
                    body.append(dimmed(MediaCard.unsupportedLabel(byId[id] ?? first)))
                default:
                    break
                }
            }
            body.append(dimmed(footer))
            return place(bubble(body), outgoing: outgoing)
        }
    }

    /// A box around `lines`, as wide as its widest line.
    private func bubble(_ lines: [String]) -> [String] {
        let inner = lines.map(DisplayWidth.of).max() ?? 0
        let top = "╭" + String(repeating: "─", count: inner + 2) + "╮"
        let bottom = "╰" + String(repeating: "─", count: inner + 2) + "╯"
        return [top] + lines.map { "│ " + $0 + String(repeating: " ", count: inner - DisplayWidth.of($0)) + " │" } + [
            bottom
        ]
    }

    /// Lines on the left (incoming) or right-aligned (outgoing), in the side's colour.
    private func place(_ lines: [String], outgoing: Bool) -> [String] {
        let blockWidth = lines.map(DisplayWidth.of).max() ?? 0
        return lines.map { line in
            let padded = line + String(repeating: " ", count: blockWidth - DisplayWidth.of(line))
            let coloured =
                colors
                ? (outgoing ? TerminalStyle.outgoing : TerminalStyle.incoming) + padded + TerminalStyle.reset : padded
            return outgoing ? String(repeating: " ", count: max(0, width - blockWidth)) + coloured : coloured
        }
    }

    private func centred(_ text: String) -> String {
        let visible = truncated(text, to: width)
        let pad = max(0, (width - DisplayWidth.of(visible)) / 2)
        return String(repeating: " ", count: pad) + dimmed(visible)
    }

    /// A group member's name in their colour (Telegram-iOS's seven, as 256-colour SGR), or a channel's title on its
    /// post, bold.
    private func authorLine(_ message: Message, width: Int) -> String {
        let name = truncated(MessageAuthorship.name(message, names: names), to: width)
        guard colors else { return name }
        let colour = MessageAuthorship.terminalColors[
            MessageAuthorship.colorIndex(message.authorId ?? message.id.peerId)]
        return "\u{1B}[1;38;5;\(colour)m" + name + TerminalStyle.reset
    }

    private func dimmed(_ text: String) -> String { colors ? TerminalStyle.dim + text + TerminalStyle.reset : text }

    // MARK: - Text

    /// `text` broken into lines of at most `width` columns (at spaces when it can, inside a word when it must), each
    /// character in its entities' styles.
    func wrap(_ text: String, entities: [MessageTextEntity], width: Int) -> [String] {
        var result: [String] = []
        for paragraph in Self.paragraphs(text) {
            var line: [(Character, String?)] = []
            var lineWidth = 0
            var lastSpace: Int?
            for (character, style) in styled(paragraph.text, offset: paragraph.utf16Offset, entities: entities) {
                let characterWidth = DisplayWidth.of(character)
                if lineWidth + characterWidth > width, !line.isEmpty {
                    if let space = lastSpace, space > 0 {
                        result.append(render(Array(line[..<space])))
                        line = Array(line[(space + 1)...])
                    } else {
                        result.append(render(line))
                        line = []
                    }
                    lineWidth = line.reduce(0) { $0 + DisplayWidth.of($1.0) }
                    lastSpace = line.lastIndex { $0.0 == " " }
                }
                if character == " " { lastSpace = line.count }
                line.append((character, style))
                lineWidth += characterWidth
            }
            result.append(render(line))
        }
        return result
    }

    private func render(_ line: [(Character, String?)]) -> String {
        var out = ""
        var current: String?
        for (character, style) in line {
            if colors, style != current {
                if current != nil { out += TerminalStyle.reset }
                if let style { out += "\u{1B}[\(style)m" }
                current = style
            }
            out.append(character)
        }
        if colors, current != nil { out += TerminalStyle.reset }
        return out
    }

    /// Each character of `text` (which starts at UTF-16 offset `offset` of the message) with the SGR parameters of the
    /// entities covering it; entities outside the text are ignored.
    private func styled(_ text: Substring, offset: Int, entities: [MessageTextEntity]) -> [(Character, String?)] {
        var position = offset
        return text.map { character in
            let length = character.utf16.count
            defer { position += length }
            let styles = entities.filter { $0.range.contains(position) }.compactMap {
                TerminalStyle.parameters($0.type)
            }
            return (character, styles.isEmpty ? nil : styles.joined(separator: ";"))
        }
    }

    private static func paragraphs(_ text: String) -> [(text: Substring, utf16Offset: Int)] {
        var result: [(Substring, Int)] = []
        var offset = 0
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            result.append((part, offset))
            offset += part.utf16.count + 1
        }
        return result
    }

    private func truncated(_ text: String, to columns: Int) -> String {
        guard DisplayWidth.of(text) > columns else { return text }
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > max(0, columns - 1) { break }
            out.append(character)
            used += characterWidth
        }
        return out + "…"
    }

    // MARK: - Labels

    private func name(of message: Message) -> String {
        if let author = message.authorId, author == accountPeerId { return "You" }
        return message.authorId.flatMap { names[$0] } ?? "them"
    }

    private func time(_ message: Message) -> String {
        let seconds = (Int64(message.timestamp) + Int64(utcOffset)) % 86_400
        let local = seconds < 0 ? seconds + 86_400 : seconds
        return String(format: "%02d:%02d", local / 3600, local % 3600 / 60)
    }

    static func dayName(_ day: Int32) -> String {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(parts.day ?? 1) \(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.year ?? 1970)"
    }

    private static func entities(of message: Message) -> [MessageTextEntity] {
        message.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
    }

    private static func mediaLabel(_ message: Message) -> String {
        if let image = message.media.compactMap({ $0 as? TelegramMediaImage }).first,
            let size = image.largestRepresentation?.dimensions
        {
            return "[photo \(size.width)×\(size.height)]"
        }
        if let file = message.media.compactMap({ $0 as? TelegramMediaFile }).first {
            if let badge = VideoBadge(file) { return badge.terminalLabel(file) }
            return file.isVideo ? "[video]" : "[\(file.fileName ?? "picture")]"
        }
        return "[media]"
    }

    private static func fileLabel(_ message: Message) -> String {
        guard let file = message.media.compactMap({ $0 as? TelegramMediaFile }).first else { return "[file]" }
        let size = file.size.map { ByteCountFormatter.string(fromByteCount: $0, countStyle: .file) } ?? "?"
        return "📄 \(file.fileName ?? "file") (\(size))"
    }

    /// A voice note: its waveform as block characters fitted to the width, and its duration.
    private func voiceLabel(_ message: Message, width: Int) -> String {
        let file = message.media.compactMap { $0 as? TelegramMediaFile }.first
        var duration: Int32 = 0
        var bitstream: [UInt8]?
        for case .audio(_, let seconds, _, _, let waveform) in file?.attributes ?? [] {
            duration = seconds
            bitstream = waveform
        }
        let label = String(format: " %d:%02d", duration / 60, duration % 60)
        let bars = max(4, min(40, width - 3 - label.count))
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        guard let bitstream, !bitstream.isEmpty else { return "🎤" + String(repeating: "▁", count: bars) + label }
        let samples = AudioWaveform(bitstream: bitstream).samples
        let peak = max(1, Int(samples.max() ?? 1))
        let drawn = (0..<bars).map { bar -> Character in
            let sample = Int(samples[min(samples.count - 1, bar * samples.count / bars)])
            return blocks[min(7, sample * 8 / (peak + 1))]
        }
        return "🎤 " + String(drawn) + label
    }

    /// A service message in words (Telegram-iOS `PresentationStrings`' service-message texts, shortened): who joined,
    /// left, added or removed whom, the group or channel created or renamed, who pinned what. `names` names the peers
    /// it can; `byId` holds the messages a pin may name.
    static func actionText(
        _ message: Message, names: [PeerId: String] = [:], byId: [MessageId: Message] = [:]
    ) -> String {
        guard let action = message.media.compactMap({ $0 as? TelegramMediaAction }).first else {
            return "service message"
        }
        let isChannel = MessageAuthorship.isChannelPost(message)
        let author = message.authorId.flatMap { names[$0] } ?? (message.author as? TelegramUser)?.displayTitle
        func list(_ peers: [PeerId]) -> String {
            let known = peers.map { names[$0] ?? "someone" }
            return known.isEmpty ? "someone" : known.joined(separator: ", ")
        }
        switch action.action {
        case .groupCreated(let title): return "\(isChannel ? "channel" : "group") “\(title)” created"
        case .titleUpdated(let title):
            return isChannel
                ? "channel renamed to “\(title)”" : "\(author ?? "someone") changed the title to “\(title)”"
        case .addedMembers(let peers):
            if let id = message.authorId, peers == [id] { return "\(author ?? list(peers)) joined" }
            return author.map { "\($0) added \(list(peers))" } ?? "\(list(peers)) joined"
        case .removedMembers(let peers):
            if let id = message.authorId, peers == [id] { return "\(author ?? list(peers)) left" }
            return author.map { "\($0) removed \(list(peers))" } ?? "\(list(peers)) left"
        case .joinedByLink: return "\(author ?? "someone") joined by link"
        case .pinnedMessageUpdated:
            return PinnedMessageBar.serviceText(author: author, pinned: PinnedMessageBar.target(of: message, in: byId))
        default: return "service message"
        }
    }
}
