import Postbox
import SyncCore

/// Who a message is shown as from, and what a channel post adds under it (Telegram-iOS
/// `ChatMessageBubbleItemNode`: the author's name in groups, the channel's title on its posts, the views and the
/// signature in the date line).
enum MessageAuthorship {
    /// A broadcast channel's post: the channel is its author (`SyncCoreApi` stores a post without `from_id` under the
    /// channel; an anonymous admin's supergroup message is the same and is shown the same way).
    static func isChannelPost(_ message: Message) -> Bool {
        message.id.peerId.namespace == Namespaces.Peer.cloudChannel && message.authorId == message.id.peerId
    }

    /// Whether the message is drawn on the incoming side: Telegram-iOS shows every post of a broadcast channel as
    /// incoming, the admin's own too (`Message.effectivelyIncoming`, `TelegramCore/Sources/Utils/MessageUtils.swift`).
    static func isIncoming(_ message: Message) -> Bool {
        message.flags.contains(.incoming) || isChannelPost(message)
    }

    /// Whether a name heads the bubble: a channel post's title, and the sender of an incoming message in a basic group
    /// or supergroup (private chats need none).
    static func showsName(_ message: Message) -> Bool {
        if isChannelPost(message) { return true }
        let namespace = message.id.peerId.namespace
        return message.flags.contains(.incoming)
            && (namespace == Namespaces.Peer.cloudGroup || namespace == Namespaces.Peer.cloudChannel)
    }

    /// The heading name: the channel's title on a post, else the sender's name as `names` has it.
    static func name(_ message: Message, names: [PeerId: String]) -> String {
        if isChannelPost(message) {
            return (message.author as? TelegramChannel)?.title ?? names[message.id.peerId] ?? "Channel"
        }
        return message.authorId.flatMap { names[$0] } ?? (message.author as? TelegramUser)?.displayTitle ?? "Someone"
    }

    /// Whom a forwarded message names ("Forwarded from NAME", Telegram-iOS `ChatMessageForwardInfoNode`): the first
    /// author as `names` has them, else the name the header carries (a hidden sender's), else "Unknown"; `nil` for a
    /// message that is not a forward (or was sent with its author dropped).
    static func forwardedFrom(_ message: Message, names: [PeerId: String]) -> String? {
        guard let forward = message.attributes.compactMap({ $0 as? ForwardSourceInfoAttribute }).first else {
            return nil
        }
        return forward.authorId.flatMap { names[$0] } ?? forward.authorName ?? "Unknown"
    }

    /// Telegram-iOS's seven default name colours (`PeerNameColors.defaultSingleColors`,
    /// `submodules/AccountContext/Sources/PeerNameColors.swift`): red, orange, violet, green, cyan, blue, pink.
    static let nameColors: [UInt32] = [0xCC5049, 0xD67722, 0x955CDB, 0x40A920, 0x309EBA, 0x368AD1, 0xC7508B]

    /// The colour index of `peerId`'s name: its id modulo 7, as Telegram-iOS picks it for a peer with no colour of its
    /// own (`Peer.nameColor`: `PeerNameColor(rawValue: Int32(id % 7))`).
    static func colorIndex(_ peerId: PeerId) -> Int { Int((peerId.id.rawValue % 7 + 7) % 7) }

    /// The 256-colour terminal index closest to each name colour (xterm's 6×6×6 cube).
    static let terminalColors: [Int] = nameColors.map { rgb in
        func level(_ value: UInt32) -> Int {
            let steps = [0, 95, 135, 175, 215, 255]
            return steps.indices.min { abs(steps[$0] - Int(value)) < abs(steps[$1] - Int(value)) } ?? 0
        }
        return 16 + 36 * level(rgb >> 16 & 0xFF) + 6 * level(rgb >> 8 & 0xFF) + level(rgb & 0xFF)
    }

    /// A count as Telegram shows views: 999, 1K, 1.2K, 12.5K, 1.5M — the thousands or millions with one decimal,
    /// dropped when it is 0, never rounded up (Telegram-iOS `compactNumericCountString`,
    /// `submodules/TelegramPresentationData/Sources/NumericFormat.swift`).
    static func compactCount(_ count: Int) -> String {
        if count >= 1_000_000 {
            let tenth = count % 1_000_000 / 100_000
            return "\(count / 1_000_000)" + (tenth != 0 ? ".\(tenth)" : "") + "M"
        }
        if count >= 1000 {
            let tenth = count % 1000 / 100
            return "\(count / 1000)" + (tenth != 0 ? ".\(tenth)" : "") + "K"
        }
        return "\(count)"
    }

    /// The eye before a view count, in emoji presentation (U+FE0F): two columns wide, as terminals draw it, so
    /// `DisplayWidth` and the terminal agree.
    static let viewsIcon = "👁\u{FE0F}"

    /// What a post shows before its time: the views (`👁 1.2K`) and the author's signature, when it has them.
    static func postStatus(_ message: Message) -> String? {
        var parts: [String] = []
        if let views = message.attributes.compactMap({ $0 as? ViewCountMessageAttribute }).first?.count {
            parts.append(viewsIcon + " " + compactCount(Int(views)))
        }
        if let signature = message.attributes.compactMap({ $0 as? AuthorSignatureMessageAttribute }).first?.signature,
            !signature.isEmpty
        {
            parts.append(signature)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }
}
