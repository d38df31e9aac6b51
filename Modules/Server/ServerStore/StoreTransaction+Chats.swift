public import SQLite

extension StoreTransaction {
    /// The basic group `id` with its members.
    public func chat(id: Int64) throws(SQLiteError) -> ChatRecord? {
        guard
            var chat = try row(
                """
                SELECT id, title, creator, date, version, default_banned_rights, migrated_to, photo FROM chats
                WHERE id = ?
                """,
                [.integer(id)],
                {
                    ChatRecord(
                        id: $0.int64(0), title: $0.text(1), creator: $0.int64(2),
                        date: Int32(truncatingIfNeeded: $0.int64(3)),
                        version: Int32(truncatingIfNeeded: $0.int64(4)), defaultBannedRights: $0.optionalBytes(5),
                        migratedTo: $0.optionalInt64(6), photo: $0.optionalBytes(7))
                })
        else { return nil }
        chat.members = try rows(
            "SELECT user_id, inviter, date FROM chat_members WHERE chat_id = ? ORDER BY date, user_id", [.integer(id)]
        ) {
            ChatMemberRecord(userId: $0.int64(0), inviter: $0.int64(1), date: Int32(truncatingIfNeeded: $0.int64(2)))
        }
        return chat
    }

    /// Stores a new basic group and its members.
    public func insert(_ chat: ChatRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO chats (id, title, creator, date, version) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(chat.id), .text(chat.title), .integer(chat.creator), .integer(Int64(chat.date)),
                .integer(Int64(chat.version)),
            ])
        for member in chat.members { try addMember(member, to: chat.id) }
    }

    /// Adds a member; returns false when they already were one.
    @discardableResult
    public func addMember(_ member: ChatMemberRecord, to chatId: Int64) throws(SQLiteError) -> Bool {
        try run(
            "INSERT OR IGNORE INTO chat_members (chat_id, user_id, inviter, date) VALUES (?, ?, ?, ?)",
            [.integer(chatId), .integer(member.userId), .integer(member.inviter), .integer(Int64(member.date))]) > 0
    }

    /// Removes a member; returns whether they were one.
    @discardableResult
    public func removeMember(_ userId: Int64, from chatId: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM chat_members WHERE chat_id = ? AND user_id = ?", [.integer(chatId), .integer(userId)]) > 0
    }

    /// Renames a group and bumps its version.
    public func setTitle(_ title: String, chatId: Int64) throws(SQLiteError) {
        try run("UPDATE chats SET title = ?, version = version + 1 WHERE id = ?", [.text(title), .integer(chatId)])
    }

    /// Bumps a group's version (its member list changed).
    public func bumpVersion(chatId: Int64) throws(SQLiteError) {
        try run("UPDATE chats SET version = version + 1 WHERE id = ?", [.integer(chatId)])
    }

    /// Replaces a basic group's default banned rights.
    public func setDefaultBannedRights(_ rights: [UInt8]?, chatId: Int64) throws(SQLiteError) {
        try run("UPDATE chats SET default_banned_rights = ? WHERE id = ?", [.optional(rights), .integer(chatId)])
    }

    /// Replaces a basic group's photo (a serialized `Photo`; `nil` removes it) and bumps its version.
    public func setPhoto(_ photo: [UInt8]?, chatId: Int64) throws(SQLiteError) {
        try run(
            "UPDATE chats SET photo = ?, version = version + 1 WHERE id = ?", [.optional(photo), .integer(chatId)])
    }

    /// Marks a basic group as migrated to supergroup `channelId`.
    public func setMigrated(chatId: Int64, to channelId: Int64) throws(SQLiteError) {
        try run("UPDATE chats SET migrated_to = ? WHERE id = ?", [.integer(channelId), .integer(chatId)])
    }

    /// The basic group that became supergroup `channelId`, if one did.
    public func chatMigrated(to channelId: Int64) throws(SQLiteError) -> Int64? {
        try integer("SELECT id FROM chats WHERE migrated_to = ?", [.integer(channelId)])
    }

    /// The newest message of `owner`'s box in basic group `chatId`.
    public func topMessageId(owner: Int64, chatId: Int64) throws(SQLiteError) -> Int64? {
        try integer(
            "SELECT max(id) FROM messages WHERE owner = ? AND peer_kind = 1 AND peer_id = ?",
            [.integer(owner), .integer(chatId)])
    }
}
