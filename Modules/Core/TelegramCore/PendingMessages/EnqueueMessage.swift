import CryptoUtils
import Foundation
public import Postbox
public import SyncCore

/// A message to send (Telegram-iOS `EnqueueMessage`): text with its entities, optionally a reply and one piece of media
/// — a local file or photo (`Account.prepareFile`, `Account.prepareImage`: uploaded before the message is sent) or a
/// cloud document or photo the server already has (a sticker from a set: sent by reference). Messages sharing a
/// `groupingKey` in one `enqueue` call are sent together as one album (`messages.sendMultiMedia`, at most 10).
/// `forward(_:hideNames:hideCaptions:)` sends a copy of a stored message with its forward header
/// (`messages.forwardMessages`), or without it (`drop_author`).
public struct EnqueueMessage: Sendable {
    public var text: String
    public var entities: [MessageTextEntity]
    public var replyTo: MessageId?
    public var media: (any Media)?
    public var groupingKey: Int64?
    /// The stored message this one forwards.
    public var forwardSource: MessageId?
    /// For a forward: `drop_author` and `drop_media_captions` (Telegram-iOS `ForwardOptionsMessageAttribute`).
    public var forwardOptions: ForwardOptionsMessageAttribute?
    /// Sent with `no_webpage`: the server builds no preview for the text's link (Telegram-iOS
    /// `OutgoingContentInfoMessageAttribute.disableLinkPreviews`).
    public var disableLinkPreviews = false

    public init(
        text: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil, media: (any Media)? = nil,
        groupingKey: Int64? = nil
    ) {
        self.text = text
        self.entities = entities
        self.replyTo = replyTo
        self.media = media
        self.groupingKey = groupingKey
    }

    /// A message with a document (`Account.prepareFile`).
    public init(text: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil, file: TelegramMediaFile?) {
        self.init(text: text, entities: entities, replyTo: replyTo, media: file)
    }

    /// A forward of the stored message `source` (from any chat this account has). `hideNames` sends it as a plain
    /// copy with no "Forwarded from" (`drop_author`); `hideCaptions`, with it, leaves media without their caption
    /// (`drop_media_captions`; ignored without `hideNames`, as Telegram-iOS offers it only then).
    public static func forward(
        _ source: MessageId, hideNames: Bool = false, hideCaptions: Bool = false
    )
        -> EnqueueMessage
    {
        var message = EnqueueMessage(text: "")
        message.forwardSource = source
        if hideNames {
            message.forwardOptions = ForwardOptionsMessageAttribute(hideNames: true, hideCaptions: hideCaptions)
        }
        return message
    }

    /// A fresh grouping key for an album.
    public static func newGroupingKey() -> Int64 { Int64.random(in: 1...Int64.max) }
}

/// Why `enqueueMessages` refused a batch; nothing of the batch is stored.
public enum EnqueueError: Error, Equatable {
    /// A forward names a message that is not stored.
    case forwardSourceMissing(MessageId)
    /// An album of more than 10 items, or with an item that is not a photo or a document.
    case albumInvalid(groupingKey: Int64)
}

/// Stores outgoing messages at once (Telegram-iOS `enqueueMessages`): each gets a local id, the unsent flag and a
/// random `globallyUniqueId` that is its `random_id` on the wire, so every open view shows it before the server
/// answers; the `PendingMessageManager` sends what the unsent table holds. Returns the local ids in order.
public func enqueueMessages(
    transaction tx: Transaction, accountPeerId: PeerId, peerId: PeerId, messages: [EnqueueMessage], now: Int32
) throws -> [MessageId] {
    let albums = Dictionary(grouping: messages.compactMap(\.groupingKey), by: { $0 })
    for (key, items) in albums where items.count > 10 { throw EnqueueError.albumInvalid(groupingKey: key) }
    for message in messages {
        if let key = message.groupingKey, !(message.media is TelegramMediaImage || message.media is TelegramMediaFile) {
            throw EnqueueError.albumInvalid(groupingKey: key)
        }
    }
    let stored = try messages.map { message -> StoreMessage in
        let randomId = Int64(bitPattern: SecureRandom.bytes(8).withUnsafeBytes { $0.load(as: UInt64.self) })
        var attributes: [MessageAttribute] = [OutgoingMessageInfoAttribute(uniqueId: randomId)]
        var text = message.text
        var entities = message.entities
        var media = message.media.map { [$0] } ?? []
        if let source = message.forwardSource {
            guard let original = try tx.getMessage(source) else { throw EnqueueError.forwardSourceMissing(source) }
            media = original.media
            let options = message.forwardOptions
            if options?.hideCaptions == true && !media.isEmpty {
                text = ""
                entities = []
            } else {
                text = original.text
                entities = original.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
            }
            if let options {
                // A plain copy: the server sends no header either (`drop_author`).
                attributes.append(options)
            } else {
                // A forward of a forward names the first author, as the server does.
                let earlier = original.attributes.compactMap { $0 as? ForwardSourceInfoAttribute }.first
                attributes.append(
                    earlier ?? ForwardSourceInfoAttribute(authorId: original.authorId, date: original.timestamp))
            }
            attributes.append(PendingForwardAttribute(sourceMessageId: source))
        }
        if message.disableLinkPreviews {
            attributes.append(OutgoingContentInfoMessageAttribute(disableLinkPreviews: true))
        }
        if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
        if let replyTo = message.replyTo { attributes.append(ReplyMessageAttribute(messageId: replyTo)) }
        return StoreMessage(
            id: .partial(peerId, Namespaces.Message.local), globallyUniqueId: randomId,
            groupingKey: message.groupingKey,
            timestamp: now, flags: [.unsent], authorId: accountPeerId, text: text, attributes: attributes, media: media)
    }
    return try tx.addMessages(stored)
}
