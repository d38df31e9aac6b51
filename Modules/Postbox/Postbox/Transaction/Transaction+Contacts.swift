extension Transaction {
    /// The account's contacts (Telegram-iOS `Transaction.getContactPeerIds`).
    public func getContactPeerIds() throws -> Set<PeerId> { try tables.contacts.all() }

    /// Whether `peerId` is one of the account's contacts.
    public func isPeerContact(peerId: PeerId) throws -> Bool { try tables.contacts.contains(peerId) }

    /// Makes the account's contacts exactly `peerIds` (Telegram-iOS `Transaction.replaceContactPeerIds`).
    public func replaceContactPeerIds(_ peerIds: Set<PeerId>) throws {
        try checkWritable()
        if try tables.contacts.replace(peerIds) { operations.updatedContacts = true }
    }

    /// The server's `saved_count` stored with the contacts (Telegram-iOS `Transaction.getRemoteContactCount`).
    public func getRemoteContactCount() throws -> Int32 { try tables.metadata.remoteContactCount() }

    /// Stores the server's `saved_count` (Telegram-iOS `Transaction.replaceRemoteContactCount`).
    public func replaceRemoteContactCount(_ count: Int32) throws {
        try checkWritable()
        guard try tables.metadata.remoteContactCount() != count else { return }
        try tables.metadata.setRemoteContactCount(count)
        operations.updatedContacts = true
    }
}
