import ValueBox

/// Table 16 (int64 keys, empty values): the account's contacts, one key per contact peer id (Telegram-iOS Postbox
/// `ContactTable`). The whole set is replaced at once, as Telegram-iOS's `replaceContactPeerIds` does.
final class ContactTable: Table {
    func all() throws -> Set<PeerId> {
        var result: Set<PeerId> = []
        try valueBox.scan(table) { key, _ in
            result.insert(PeerId(key.getInt64(0)))
            return true
        }
        return result
    }

    func contains(_ peerId: PeerId) throws -> Bool {
        try valueBox.get(table, key: Keys.peer(peerId)) != nil
    }

    /// Makes the stored set `ids`, writing only the difference; whether anything changed.
    func replace(_ ids: Set<PeerId>) throws -> Bool {
        let previous = try all()
        guard previous != ids else { return false }
        for removed in previous.subtracting(ids) { try valueBox.remove(table, key: Keys.peer(removed)) }
        for added in ids.subtracting(previous) { try valueBox.set(table, key: Keys.peer(added), value: []) }
        return true
    }
}
