public import PostboxCoding

extension Transaction {
    /// The state object the account layer keeps for a chat (Telegram-iOS `Transaction.getPeerChatState`): for a
    /// channel, its `ChannelState`; `nil` when none is stored.
    public func getPeerChatState(_ peerId: PeerId) throws -> PostboxCoding? {
        try tables.peerChatStates.get(peerId)
    }

    /// Replaces (or with `nil` removes) a chat's state object, in this transaction with whatever it accounts for.
    public func setPeerChatState(_ peerId: PeerId, state: PostboxCoding?) throws {
        try checkWritable()
        try tables.peerChatStates.set(peerId, state)
    }
}
