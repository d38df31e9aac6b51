public import SQLite

/// Voice notes listened to (migration 15; core.telegram.org method `messages.readMessageContents`): the `media_unread`
/// flag on each box's copy of a message.
extension StoreTransaction {
    /// Clears `media_unread` on message `id` of `owner`'s box; returns whether it was set.
    public func clearMediaUnread(owner: Int64, id: Int64) throws(SQLiteError) -> Bool {
        try run(
            "UPDATE messages SET media_unread = 0 WHERE owner = ? AND id = ? AND media_unread = 1",
            [.integer(owner), .integer(id)]) > 0
    }
}
