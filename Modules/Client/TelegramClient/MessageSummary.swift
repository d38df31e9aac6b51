public import Postbox
public import SyncCore
import TextFormat

/// A message as the client prints it with `--json`: stable keys, UTF-16 entity offsets as the API counts them, the
/// text back as markdown (TDLib's `getMarkdownText`), and the media reduced to what a script needs.
public struct MessageSummary: Codable, Equatable, Sendable {
    /// The message id in its chat (the server's; negative-free local ids are reported with `"unsent": true`).
    public var id: Int32
    /// `user:ID` or `chat:ID`.
    public var chat: String
    public var chatName: String
    /// The author's `user:ID`.
    public var from: String?
    public var fromName: String?
    /// Unix time.
    public var date: Int32
    public var outgoing: Bool
    public var text: String
    public var markdown: String
    public var entities: [EntitySummary]
    public var media: MediaSummary?
    public var replyTo: Int32?
    public var edited: Bool
    public var unsent: Bool
    public var failed: Bool
    /// Our message read by the other side (its id at most the chat's outgoing read mark in Postbox, which
    /// `updateReadHistoryOutbox` and `updateReadChannelOutbox` move; `tg history` draws it as ✓✓); `nil` for incoming
    /// messages and when the chat's read state was not given.
    public var read: Bool?
    /// The album's grouping key, when the message is part of one.
    public var album: Int64?
    /// A channel post's view count (`views`), as the server last said.
    public var views: Int32?
    /// A channel post's author signature (`post_author`), when the channel signs its posts.
    public var signature: String?
    /// A service message's action (created, joined, left, renamed, …).
    public var action: ActionSummary?
    /// Whether the message is pinned in its chat (the `.pinned` tag).
    public var pinned: Bool
    /// The message's reactions (its `ReactionsMessageAttribute`), most first; empty without any.
    public var reactions: [ReactionSummary]
    /// A forward's first author (`user:ID`, `channel:ID`) and their name ("Forwarded from NAME": as `names` had it,
    /// else the hidden sender's name the header carries); both `nil` for a message that is no forward.
    public var forwardedFrom: String?
    public var forwardedFromName: String?

    /// The summary of `message`; `chatName` names its chat, `readState` is the chat's (for `read`), `names` the
    /// peers a forward may name (`ChatNames`).
    public init(
        _ message: Message, chatName: String, readState: CombinedPeerReadState? = nil, names: [PeerId: String] = [:]
    ) {
        id = message.id.id
        chat = PeerResolver.handle(message.id.peerId)
        self.chatName = chatName
        from = message.authorId.map(PeerResolver.handle)
        fromName = message.author.map(PeerResolver.displayName)
        date = message.timestamp
        outgoing = !message.flags.contains(.incoming)
        text = message.text
        let messageEntities =
            message.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
        entities = messageEntities.map(EntitySummary.init)
        markdown = MarkdownWriter.markdown(text: message.text, entities: messageEntities).text
        media = message.media.lazy.compactMap(MediaSummary.init).first
        replyTo = message.attributes.compactMap { $0 as? ReplyMessageAttribute }.first?.messageId.id
        edited = message.attributes.contains { $0 is EditedMessageAttribute }
        unsent = message.flags.contains(.unsent)
        failed = message.attributes.contains { $0 is SendFailureAttribute }
        if outgoing, let readState {
            read = message.id.id <= (readState.states[message.id.namespace]?.maxOutgoingReadId ?? 0)
        }
        album = message.groupingKey
        views = message.attributes.compactMap { $0 as? ViewCountMessageAttribute }.first?.count
        signature = message.attributes.compactMap { $0 as? AuthorSignatureMessageAttribute }.first?.signature
        action = message.media.lazy.compactMap { $0 as? TelegramMediaAction }.first.map { ActionSummary($0.action) }
        pinned = message.tags.contains(.pinned)
        reactions = message.reactionsAttribute?.reactions.map(ReactionSummary.init) ?? []
        if let forward = message.attributes.compactMap({ $0 as? ForwardSourceInfoAttribute }).first {
            forwardedFrom = forward.authorId.map(PeerResolver.handle)
            forwardedFromName = forward.authorId.flatMap { names[$0] } ?? forward.authorName ?? "Unknown"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, chat, chatName, from, fromName, date, outgoing, text, markdown, entities, media, replyTo, edited,
            unsent, failed, read,
            album, views, signature, action, pinned, reactions, forwardedFrom, forwardedFromName
    }

    /// Every key is written, absent values as `null`, so scripts see the same keys on every message.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(chat, forKey: .chat)
        try container.encode(chatName, forKey: .chatName)
        try container.encode(from, forKey: .from)
        try container.encode(fromName, forKey: .fromName)
        try container.encode(date, forKey: .date)
        try container.encode(outgoing, forKey: .outgoing)
        try container.encode(text, forKey: .text)
        try container.encode(markdown, forKey: .markdown)
        try container.encode(entities, forKey: .entities)
        try container.encode(media, forKey: .media)
        try container.encode(replyTo, forKey: .replyTo)
        try container.encode(edited, forKey: .edited)
        try container.encode(unsent, forKey: .unsent)
        try container.encode(failed, forKey: .failed)
        try container.encode(read, forKey: .read)
        try container.encode(album, forKey: .album)
        try container.encode(views, forKey: .views)
        try container.encode(signature, forKey: .signature)
        try container.encode(action, forKey: .action)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(reactions, forKey: .reactions)
        try container.encode(forwardedFrom, forKey: .forwardedFrom)
        try container.encode(forwardedFromName, forKey: .forwardedFromName)
    }

    /// One line for people: `[id] date name: text [media]`, a channel post's signature and views after it.
    public func line(showChat: Bool = false) -> String {
        var parts: [String] = ["[\(id)]", Self.time(date)]
        if showChat { parts.append("(\(chatName))") }
        parts.append((outgoing ? "me" : fromName ?? from ?? "?") + ":")
        if let forwardedFromName { parts.append("(forwarded from \(forwardedFromName))") }
        if let replyTo { parts.append("↩\(replyTo)") }
        if !text.isEmpty { parts.append(markdown) }
        if let media { parts.append("[\(media.label)]") }
        if let action { parts.append("(\(action.label(from: from)))") }
        if let signature { parts.append("— \(signature)") }
        if let views { parts.append("👁 \(views)") }
        if edited { parts.append("(edited)") }
        if pinned { parts.append("📌") }
        if !reactions.isEmpty { parts.append(reactions.map(\.label).joined(separator: " ")) }
        if failed { parts.append("(failed)") } else if unsent { parts.append("(sending)") }
        return parts.joined(separator: " ")
    }

    /// `YYYY-MM-DD HH:MM` in UTC.
    static func time(_ date: Int32) -> String {
        let days = Int(date) / 86400
        let seconds = Int(date) % 86400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(seconds / 3600)):\(two(seconds % 3600 / 60))"
    }
}

/// A text entity: Telegram's entity name (`bold`, `textUrl`, …), its UTF-16 offset and length, and its URL, language
/// or user where it has one.
public struct EntitySummary: Codable, Equatable, Sendable {
    public var type: String
    public var offset: Int
    public var length: Int
    public var url: String?
    public var language: String?
    public var user: String?

    public init(_ entity: MessageTextEntity) {
        offset = entity.range.lowerBound
        length = entity.range.count
        switch entity.type {
        case .unknown: type = "unknown"
        case .mention: type = "mention"
        case .hashtag: type = "hashtag"
        case .botCommand: type = "botCommand"
        case .url: type = "url"
        case .email: type = "email"
        case .bold: type = "bold"
        case .italic: type = "italic"
        case .code: type = "code"
        case .pre(let language): (type, self.language) = ("pre", language)
        case .textUrl(let url): (type, self.url) = ("textUrl", url)
        case .textMention(let peerId): (type, user) = ("textMention", PeerResolver.handle(peerId))
        case .phoneNumber: type = "phoneNumber"
        case .strikethrough: type = "strikethrough"
        case .blockQuote: type = "blockquote"
        case .underline: type = "underline"
        case .bankCard: type = "bankCard"
        case .spoiler: type = "spoiler"
        case .customEmoji: type = "customEmoji"
        case .cashtag: type = "cashtag"
        }
    }
}

/// A message's media: its kind (`photo`, `file`, `voice`, `sticker`, `video`, `audio`, `gif`, `location`, `venue`,
/// `live_location`, `contact`, `dice`, `poll`, `webpage` — a link preview, `webpage_pending` while the server fetches
/// it — or `unsupported` for a kind kept but not modelled yet), and what a script needs of it.
public struct MediaSummary: Codable, Equatable, Sendable {
    public var kind: String = ""
    public var fileName: String?
    public var mimeType: String?
    public var size: Int64?
    public var width: Int32?
    public var height: Int32?
    /// Seconds, for voice notes, audio and video.
    public var duration: Int32?
    /// A sticker's emoji.
    public var emoji: String?
    /// A sticker's set: its short name, or `id:ID`.
    public var stickerSet: String?
    /// A place's coordinates; a venue's title and address; a live location's period in seconds from its date.
    public var latitude: Double?
    public var longitude: Double?
    public var title: String?
    public var address: String?
    public var livePeriod: Int32?
    /// A contact's name and phone, and the user behind the number.
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    public var userId: Int64?
    /// A die's value (its emoji is `emoji`).
    public var value: Int32?
    /// A poll: its question, answers and state.
    public var poll: PollSummary?
    /// An unsupported kind's TL constructor (`messageMediaGame`).
    public var constructor: String?
    /// A link preview's link, site name and type ("article", "photo", …); its title is `title`, its picture's
    /// largest size `width` × `height`.
    public var url: String?
    public var siteName: String?
    public var pageType: String?

    public init?(_ media: Media) {
        if Self.describeOther(media, into: &self) { return }
        if let image = media as? TelegramMediaImage {
            kind = "photo"
            let largest = image.representations.max {
                $0.dimensions.width * $0.dimensions.height < $1.dimensions.width * $1.dimensions.height
            }
            width = largest?.dimensions.width
            height = largest?.dimensions.height
            size = largest?.byteSize
            return
        }
        guard let file = media as? TelegramMediaFile else { return nil }
        fileName = file.fileName
        mimeType = file.mimeType
        size = file.size
        kind = "file"
        for attribute in file.attributes {
            switch attribute {
            case .sticker(let text, let pack, _):
                kind = "sticker"
                emoji = text
                switch pack {
                case .name(let name)?: stickerSet = name
                case .id(let id, _)?: stickerSet = "id:\(id)"
                default: break
                }
            case .audio(let isVoice, let seconds, _, _, _):
                if kind == "file" { kind = isVoice ? "voice" : "audio" }
                duration = seconds
            case .video(let seconds, let dimensions, let round, _, _):
                if kind == "file" { kind = round ? "round" : "video" }
                duration = Int32(seconds.rounded())
                width = dimensions.width
                height = dimensions.height
            case .imageSize(let dimensions):
                width = dimensions.width
                height = dimensions.height
            case .animated:
                if kind == "file" || kind == "video" { kind = "gif" }
            default: break
            }
        }
    }

    /// Fills in a place, contact, die, poll or unsupported kind; `false` for photos and documents.
    private static func describeOther(_ media: Media, into summary: inout MediaSummary) -> Bool {
        switch media {
        case let map as TelegramMediaMap:
            summary.kind =
                map.venue != nil ? "venue" : map.liveBroadcastingTimeout != nil ? "live_location" : "location"
            summary.latitude = map.latitude
            summary.longitude = map.longitude
            summary.title = map.venue?.title
            summary.address = map.venue?.address
            summary.livePeriod = map.liveBroadcastingTimeout
        case let contact as TelegramMediaContact:
            summary.kind = "contact"
            summary.firstName = contact.firstName
            summary.lastName = contact.lastName
            summary.phone = contact.phoneNumber
            summary.userId = contact.peerId?.id.rawValue
        case let dice as TelegramMediaDice:
            summary.kind = "dice"
            summary.emoji = dice.emoji
            summary.value = dice.value
        case let poll as TelegramMediaPoll:
            summary.kind = "poll"
            summary.poll = PollSummary(poll)
        case let page as TelegramMediaWebpage:
            summary.kind = page.isPending ? "webpage_pending" : "webpage"
            summary.url = page.url
            summary.title = page.title
            summary.siteName = page.siteName
            summary.pageType = page.type
            summary.width = page.image?.largestRepresentation?.dimensions.width
            summary.height = page.image?.largestRepresentation?.dimensions.height
        case let unsupported as TelegramMediaUnsupported:
            summary.kind = "unsupported"
            summary.constructor = unsupported.constructor
        default:
            return false
        }
        return true
    }

    /// `photo 1280×720`, `voice 3 s`, `file report.pdf (12 KB)`, `sticker 😀`, `location 21.0285, 105.8542`,
    /// `poll Ăn gì? Phở 1 ●, Bún 0 · 1 vote`.
    public var label: String {
        let place = latitude.map { "\($0), \(longitude ?? 0)" } ?? ""
        switch kind {
        case "location": return "location " + place
        case "venue": return "venue \(title ?? "") (\(place))"
        case "live_location": return "live location " + place
        case "contact":
            return "contact "
                + [firstName ?? "", lastName ?? "", phone ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        case "dice": return "dice \(emoji ?? "") \(value.map(String.init) ?? "…")"
        case "poll": return poll.map { "poll " + $0.label } ?? "poll"
        case "unsupported": return "unsupported \(constructor ?? "")"
        case "webpage", "webpage_pending":
            let name = title ?? siteName ?? url ?? ""
            return (kind == "webpage" ? "link preview" : "link preview coming") + (name.isEmpty ? "" : " " + name)
                + (width.map { " · image \($0)×\(height ?? 0)" } ?? "")
        case "photo": return "photo" + (width.map { " \($0)×\(height ?? 0)" } ?? "")
        case "voice", "audio", "video", "round": return kind + (duration.map { " \($0) s" } ?? "")
        case "sticker": return "sticker" + (emoji.map { " \($0)" } ?? "")
        default: return kind + (fileName.map { " \($0)" } ?? "") + (size.map { " (\($0) bytes)" } ?? "")
        }
    }
}

/// A poll for scripts and `tg history`: the question, each answer with its votes (once we voted or it closed), ours
/// and a quiz's right one, and its state.
public struct PollSummary: Codable, Equatable, Sendable {
    /// One answer.
    public struct Option: Codable, Equatable, Sendable {
        public var text: String
        /// Votes for it; `nil` before we voted in an open poll.
        public var voters: Int32?
        public var chosen: Bool
        public var correct: Bool
    }

    public var question: String
    public var options: [Option]
    public var totalVoters: Int32
    public var closed: Bool
    public var quiz: Bool
    public var multiple: Bool
    public var publicVoters: Bool
    public var solution: String?

    public init(_ poll: TelegramMediaPoll) {
        question = poll.text
        let voters = poll.results.voters ?? []
        options = poll.options.map { option in
            let result = voters.first { $0.opaqueIdentifier == option.opaqueIdentifier }
            return Option(
                text: option.text, voters: poll.showsResults ? result?.count ?? 0 : nil,
                chosen: result?.selected ?? false, correct: result?.isCorrect ?? false)
        }
        totalVoters = poll.results.totalVoters ?? 0
        closed = poll.isClosed
        if case .poll(let multipleAnswers) = poll.kind { multiple = multipleAnswers } else { multiple = false }
        quiz = poll.kind == .quiz
        publicVoters = poll.publicity == .public
        solution = poll.showsResults ? poll.results.solution?.text : nil
    }

    /// `Ăn gì? 1. Phở 2 ●, 2. Bún 1 · 3 votes`.
    public var label: String {
        let answers = options.enumerated().map { index, option in
            var text = "\(index + 1). \(option.text)"
            if let voters = option.voters { text += " \(voters)" }
            if option.chosen {
                text += quiz ? (option.correct ? " ✓" : " ✗") : " ●"
            } else if quiz && option.correct {
                text += " ✓"
            }
            return text
        }
        let votes = totalVoters == 1 ? "1 vote" : "\(totalVoters) votes"
        return "\(question) \(answers.joined(separator: ", ")) · \(votes)" + (closed ? " · closed" : "")
    }
}
