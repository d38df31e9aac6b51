import CryptoUtils
import Foundation
public import Postbox
public import SyncCore

/// A message to send (Telegram-iOS `EnqueueMessage`): text with its entities, optionally a reply and a file
/// (`Account.prepareFile` puts it in MediaBox as a local resource; it is uploaded before the message is sent).
public struct EnqueueMessage: Sendable {
    public var text: String
    public var entities: [MessageTextEntity]
    public var replyTo: MessageId?
    public var file: TelegramMediaFile?

    public init(text: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil, file: TelegramMediaFile? = nil) {
        self.text = text
        self.entities = entities
        self.replyTo = replyTo
        self.file = file
    }
}

/// Stores outgoing messages at once (Telegram-iOS `enqueueMessages`): each gets a local id, the unsent flag and a
/// random `globallyUniqueId` that is its `random_id` on the wire, so every open view shows it before the server
/// answers; the `PendingMessageManager` sends what the unsent table holds. Returns the local ids in order.
public func enqueueMessages(
    transaction tx: Transaction, accountPeerId: PeerId, peerId: PeerId, messages: [EnqueueMessage], now: Int32
) throws -> [MessageId] {
    let stored = messages.map { message -> StoreMessage in
        let randomId = Int64(bitPattern: SecureRandom.bytes(8).withUnsafeBytes { $0.load(as: UInt64.self) })
        var attributes: [MessageAttribute] = [OutgoingMessageInfoAttribute(uniqueId: randomId)]
        if !message.entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: message.entities)) }
        if let replyTo = message.replyTo { attributes.append(ReplyMessageAttribute(messageId: replyTo)) }
        return StoreMessage(
            id: .partial(peerId, Namespaces.Message.local), globallyUniqueId: randomId, timestamp: now, flags: [.unsent],
            authorId: accountPeerId, text: message.text, attributes: attributes, media: message.file.map { [$0] } ?? [])
    }
    return try tx.addMessages(stored)
}
