import ValueBox

/// Which messages are named by their id alone (Telegram-iOS Postbox `GlobalMessageIdsNamespace`): in Telegram's private
/// chats and basic groups one account's messages share one id sequence, so `updateDeleteMessages` names ids without
/// their chat. Postbox keeps an index from such an id to its chat for the pairs the caller declares.
public struct GlobalMessageIdsNamespace: Hashable, Sendable {
    public let peerNamespace: PeerId.Namespace
    public let messageNamespace: MessageId.Namespace

    public init(peerNamespace: PeerId.Namespace, messageNamespace: MessageId.Namespace) {
        self.peerNamespace = peerNamespace
        self.messageNamespace = messageNamespace
    }
}

/// A message id of a global namespace → its chat (Telegram-iOS Postbox `GlobalMessageIdsTable`, table 5): key the
/// 32-bit id big-endian, value the peer id.
final class GlobalMessageIdsTable: Table {
    /// The namespaces indexed; set when the Postbox is opened.
    var namespaces: Set<GlobalMessageIdsNamespace> = []

    func isGlobal(_ id: MessageId) -> Bool {
        !namespaces.isEmpty
            && namespaces.contains(
                GlobalMessageIdsNamespace(peerNamespace: id.peerId.namespace, messageNamespace: id.namespace))
    }

    private func key(_ id: Int32) -> ValueBoxKey {
        var key = ValueBoxKey(length: 4)
        key.setInt32(0, value: id)
        return key
    }

    /// Indexes `id` when its namespaces are global.
    func add(_ id: MessageId) throws {
        guard isGlobal(id) else { return }
        try valueBox.set(table, key: key(id.id), value: ValueBoxKey(int64: id.peerId.toInt64()).bytes)
    }

    /// Drops `id` from the index when it names this message (an id moved to another chat is left alone).
    func remove(_ id: MessageId) throws {
        guard isGlobal(id), try get(id.id) == id.peerId else { return }
        try valueBox.remove(table, key: key(id.id))
    }

    /// The chat of global message id `id`, when indexed.
    func get(_ id: Int32) throws -> PeerId? {
        guard let bytes = try valueBox.get(table, key: key(id)), bytes.count == 8 else { return nil }
        return PeerId(ValueBoxKey(bytes).getInt64(0))
    }
}
