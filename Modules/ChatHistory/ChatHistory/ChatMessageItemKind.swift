public import Postbox
import SyncCore

/// How a history item is drawn (Telegram-iOS `ChatMessageItemImpl`'s choice of item node, and
/// `ChatMessageBubbleItemNode.contentNodeMessagesAndClassesForItem` for a bubble's contents).
public enum ChatMessageItemKind: Equatable, Sendable {
    /// An animated sticker (`.tgs`) or a video sticker (`.webm`) under 128 KB, alone: drawn without a bubble, playing.
    case animatedSticker
    /// A still sticker: drawn without a bubble.
    case sticker
    /// A message of one to three emoji and nothing else: drawn large, without a bubble.
    case largeEmoji(count: Int)
    /// Everything else: a bubble holding these contents, in order.
    case bubble([BubbleContent])
}

/// One part of a bubble, for one message of the item.
public enum BubbleContent: Equatable, Sendable {
    /// A photo, a video, an animation or a picture sent as a file (the media part).
    case media(MessageId)
    /// A document shown as a file row.
    case file(MessageId)
    /// A voice note with its waveform.
    case voice(MessageId)
    /// The message's text (or caption), with its entities.
    case text(MessageId)
    /// A service message (a group created, a member added, …).
    case action(MessageId)
    /// A location, venue or live location, a contact, a die or a poll: drawn as a card (Telegram-iOS's map, contact,
    /// dice and poll content nodes; no map tiles offline, so a place is its coordinates).
    case card(MessageId)
    /// Media this client cannot show.
    case unsupported(MessageId)
}

/// The rules that pick an item's kind.
public enum ChatMessageItemClassifier {
    /// The largest animated sticker drawn as one (Telegram-iOS: larger ones are shown as files).
    public static let maxAnimatedStickerBytes: Int64 = 128 * 1024
    /// The most emoji a message may have to be drawn large.
    public static let maxLargeEmoji = 3

    /// The kind of the item showing `messages` (one message, or an album's).
    public static func kind(of messages: [Message]) -> ChatMessageItemKind {
        if let first = messages.first, messages.count == 1 {
            if let file = first.media.compactMap({ $0 as? TelegramMediaFile }).first, file.isSticker {
                // Telegram-iOS `ChatMessageItemImpl`: animated (`.tgs`) and video (`.webm`) stickers under 128 KB play
                // in `ChatMessageAnimatedStickerItemNode`; larger ones are files.
                if file.isAnimatedSticker || file.isVideoSticker {
                    if let size = file.size, size < maxAnimatedStickerBytes { return .animatedSticker }
                } else {
                    return .sticker
                }
            }
            if first.media.isEmpty, let count = LargeEmoji.count(in: first.text), count <= maxLargeEmoji {
                return .largeEmoji(count: count)
            }
        }
        return .bubble(messages.flatMap(contents(of:)))
    }

    /// A message's bubble contents: its media part, then its text, then a link preview's card (Telegram-iOS draws
    /// `ChatMessageWebpageBubbleContentNode` under the text).
    public static func contents(of message: Message) -> [BubbleContent] {
        var result: [BubbleContent] = []
        var preview = false
        for media in message.media {
            switch media {
            case let page as TelegramMediaWebpage:
                // A page still being fetched shows nothing until `updateWebPage` fills it in.
                if !page.isPending { preview = true }
            case is TelegramMediaImage:
                result.append(.media(message.id))
            case let file as TelegramMediaFile:
                if file.isVoice {
                    result.append(.voice(message.id))
                } else if file.isVideo || file.isAnimated || file.mimeType.hasPrefix("image/")
                    || file.mimeType.hasPrefix("video/")
                {
                    result.append(.media(message.id))
                } else {
                    result.append(.file(message.id))
                }
            case is TelegramMediaAction:
                result.append(.action(message.id))
            case is TelegramMediaMap, is TelegramMediaContact, is TelegramMediaDice, is TelegramMediaPoll:
                result.append(.card(message.id))
            default:
                result.append(.unsupported(message.id))
            }
        }
        if !message.text.isEmpty && !result.contains(.action(message.id)) { result.append(.text(message.id)) }
        if preview { result.append(.card(message.id)) }
        if result.isEmpty { result.append(.unsupported(message.id)) }
        return result
    }
}
