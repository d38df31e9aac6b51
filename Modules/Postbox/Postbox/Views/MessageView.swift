/// A snapshot of one message (Telegram-iOS Postbox `MessageView`): `nil` while it is not stored.
public struct MessageView: PostboxView, Equatable {
    public let messageId: MessageId
    public let message: Message?

    public static func == (lhs: MessageView, rhs: MessageView) -> Bool {
        lhs.messageId == rhs.messageId && messagesEqual(lhs.message, rhs.message)
    }
}

/// The live side of `MessageView`: it follows its chat's operations for this id, and its author and media.
final class MutableMessageView: MutablePostboxView {
    let messageId: MessageId
    private var message: Message?

    /// This message's chat: its inserts and updates carry the message.
    var renderedMessagePeers: Set<PeerId> { [messageId.peerId] }

    init(_ transaction: Transaction, messageId: MessageId) throws {
        self.messageId = messageId
        message = try transaction.getMessage(messageId)
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        for operation in operations.currentOperationsByPeerId[messageId.peerId] ?? [] {
            switch operation {
            case .insertMessage(let inserted) where inserted.id == messageId:
                message = inserted
                changed = true
            case .updateMessage(let updated) where updated.id == messageId:
                message = updated
                changed = true
            case .remove(let removed) where removed.contains(where: { $0.0.id == messageId }):
                message = nil
                changed = true
            default:
                break
            }
        }
        if let current = message {
            let authorChanged = current.authorId.map { operations.updatedPeers[$0] != nil } ?? false
            let mediaChanged = current.media.contains { $0.id.map { operations.updatedMedia[$0] != nil } ?? false }
            if authorChanged || mediaChanged {
                message = try transaction.getMessage(messageId)
                changed = true
            }
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        let authors = Set(message?.authorId.map { [$0] } ?? [])
        let mediaIds = Set(message?.media.compactMap(\.id) ?? [])
        guard changes.affectsHistory(of: messageId.peerId, authors: authors, mediaIds: mediaIds) else { return false }
        message = try transaction.getMessage(messageId)
        return true
    }

    func immutableView() -> MessageView { MessageView(messageId: messageId, message: message) }
}
