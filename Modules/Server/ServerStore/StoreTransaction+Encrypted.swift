public import SQLite

/// A secret chat as the relay knows it: its two people, the public DH values and the key fingerprint they
/// announced (core.telegram.org "End-to-End Encryption": the server never sees a key).
public struct EncryptedChatRecord: Sendable, Equatable {
    public enum State: Int64, Sendable {
        case requested = 0
        case accepted = 1
        case discarded = 2
    }

    public var id: Int64
    public var accessHash: Int64
    public var adminId: Int64
    public var participantId: Int64
    public var date: Int32
    public var gA: [UInt8]
    public var gB: [UInt8]?
    public var keyFingerprint: Int64?
    public var state: State
    public var historyDeleted: Bool
    /// When the chat last changed (request, acceptance, discard): `updates.getDifference` from an earlier date
    /// carries its `updateEncryption`.
    public var changed: Int32
    /// The devices the chat belongs to (as in Telegram, a secret chat lives on one device of each side): the auth
    /// key that requested it, and the one that accepted it (nil until then).
    public var adminAuthKey: Int64?
    public var participantAuthKey: Int64?

    public init(
        id: Int64, accessHash: Int64, adminId: Int64, participantId: Int64, date: Int32, gA: [UInt8],
        gB: [UInt8]? = nil,
        keyFingerprint: Int64? = nil, state: State = .requested, historyDeleted: Bool = false, changed: Int32? = nil,
        adminAuthKey: Int64? = nil, participantAuthKey: Int64? = nil
    ) {
        self.adminAuthKey = adminAuthKey
        self.participantAuthKey = participantAuthKey
        self.changed = changed ?? date
        self.id = id
        self.accessHash = accessHash
        self.adminId = adminId
        self.participantId = participantId
        self.date = date
        self.gA = gA
        self.gB = gB
        self.keyFingerprint = keyFingerprint
        self.state = state
        self.historyDeleted = historyDeleted
    }

    /// The other person of the chat, for one of its two.
    public func peer(of userId: Int64) -> Int64 { userId == adminId ? participantId : adminId }

    /// The device (auth key) the chat belongs to on `userId`'s side; nil while any of their devices may take it.
    public func device(of userId: Int64) -> Int64? { userId == adminId ? adminAuthKey : participantAuthKey }

    /// Whether the device `authKeyId` of `userId` holds the chat (it is theirs, and bound to it or to none yet).
    public func isHeld(by userId: Int64, authKeyId: Int64) -> Bool {
        guard userId == adminId || userId == participantId else { return false }
        return device(of: userId).map { $0 == authKeyId } ?? true
    }
}

/// A file uploaded for a secret chat, kept as its uploader encrypted it.
public struct EncryptedFileRecord: Sendable, Equatable {
    public var id: Int64
    public var accessHash: Int64
    public var owner: Int64
    public var dc: Int32
    public var size: Int64
    public var sha256: String
    public var keyFingerprint: Int32
    public var date: Int32

    public init(
        id: Int64, accessHash: Int64, owner: Int64, dc: Int32, size: Int64, sha256: String, keyFingerprint: Int32,
        date: Int32
    ) {
        self.id = id
        self.accessHash = accessHash
        self.owner = owner
        self.dc = dc
        self.size = size
        self.sha256 = sha256
        self.keyFingerprint = keyFingerprint
        self.date = date
    }
}

extension StoreTransaction {
    public func insert(_ chat: EncryptedChatRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO encrypted_chats (id, access_hash, admin_id, participant_id, date, g_a, g_b, key_fingerprint, state, history_deleted, changed, admin_auth_key, participant_auth_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(chat.id), .integer(chat.accessHash), .integer(chat.adminId), .integer(chat.participantId),
                .integer(Int64(chat.date)), .blob(chat.gA), .optional(chat.gB), .optional(chat.keyFingerprint),
                .integer(chat.state.rawValue), .integer(chat.historyDeleted ? 1 : 0), .integer(Int64(chat.changed)),
                .optional(chat.adminAuthKey), .optional(chat.participantAuthKey),
            ])
    }

    public func update(_ chat: EncryptedChatRecord) throws(SQLiteError) {
        try run(
            "UPDATE encrypted_chats SET g_b = ?, key_fingerprint = ?, state = ?, history_deleted = ?, changed = ?, admin_auth_key = ?, participant_auth_key = ? WHERE id = ?",
            [
                .optional(chat.gB), .optional(chat.keyFingerprint), .integer(chat.state.rawValue),
                .integer(chat.historyDeleted ? 1 : 0), .integer(Int64(chat.changed)), .optional(chat.adminAuthKey),
                .optional(chat.participantAuthKey), .integer(chat.id),
            ])
    }

    public func encryptedChat(id: Int64) throws(SQLiteError) -> EncryptedChatRecord? {
        try row(
            "SELECT id, access_hash, admin_id, participant_id, date, g_a, g_b, key_fingerprint, state, history_deleted, changed, admin_auth_key, participant_auth_key FROM encrypted_chats WHERE id = ?",
            [.integer(id)], Self.encryptedChatRecord)
    }

    /// `userId`'s secret chats that changed at or after `date`, oldest change first (at most `limit`).
    public func encryptedChats(
        userId: Int64, changedSince date: Int32, limit: Int
    ) throws(SQLiteError) -> [EncryptedChatRecord] {
        try rows(
            "SELECT id, access_hash, admin_id, participant_id, date, g_a, g_b, key_fingerprint, state, history_deleted, changed, admin_auth_key, participant_auth_key FROM encrypted_chats WHERE (admin_id = ? OR participant_id = ?) AND changed >= ? ORDER BY changed LIMIT ?",
            [.integer(userId), .integer(userId), .integer(Int64(date)), .integer(Int64(limit))],
            Self.encryptedChatRecord)
    }

    static func encryptedChatRecord(_ row: Statement) -> EncryptedChatRecord {
        EncryptedChatRecord(
            id: row.int64(0), accessHash: row.int64(1), adminId: row.int64(2), participantId: row.int64(3),
            date: Int32(truncatingIfNeeded: row.int64(4)), gA: row.bytes(5), gB: row.optionalBytes(6),
            keyFingerprint: row.optionalInt64(7),
            state: EncryptedChatRecord.State(rawValue: row.int64(8)) ?? .discarded,
            historyDeleted: row.int64(9) != 0, changed: Int32(truncatingIfNeeded: row.int64(10)),
            adminAuthKey: row.optionalInt64(11), participantAuthKey: row.optionalInt64(12))
    }

    /// Secret chats of `userId` not yet discarded (the per-account bound counts them).
    public func openEncryptedChatCount(userId: Int64) throws(SQLiteError) -> Int64 {
        try integer(
            "SELECT COUNT(*) FROM encrypted_chats WHERE (admin_id = ? OR participant_id = ?) AND state != 2",
            [.integer(userId), .integer(userId)]) ?? 0
    }

    /// Remembers a `random_id` sent in a secret chat; false when it was sent before.
    public func rememberEncrypted(randomId: Int64, chatId: Int64) throws(SQLiteError) -> Bool {
        try run(
            "INSERT OR IGNORE INTO encrypted_random_ids (chat_id, random_id) VALUES (?, ?)",
            [.integer(chatId), .integer(randomId)]) == 1
    }

    /// Appends one qts update for `owner` (qts moves by one), for their device `authKey` only when given; `body`
    /// makes the serialized update from its qts.
    public func appendQtsUpdate(
        owner: Int64, authKey: Int64? = nil, date: Int32, body: (Int64) -> [UInt8]
    ) throws(SQLiteError) -> Int64 {
        let qts = (try integer("SELECT qts FROM user_state WHERE user_id = ?", [.integer(owner)]) ?? 0) + 1
        try run("UPDATE user_state SET qts = ? WHERE user_id = ?", [.integer(qts), .integer(owner)])
        try run(
            "INSERT INTO qts_updates (owner, qts, date, body, auth_key) VALUES (?, ?, ?, ?, ?)",
            [.integer(owner), .integer(qts), .integer(Int64(date)), .blob(body(qts)), .optional(authKey)])
        return qts
    }

    /// `owner`'s qts updates after `qts`, oldest first, at most `limit`; with `authKey`, only those for every
    /// device or for that one.
    public func qtsUpdates(
        owner: Int64, after qts: Int64, limit: Int, authKey: Int64? = nil
    ) throws(SQLiteError) -> [(qts: Int64, body: [UInt8])] {
        guard let authKey else {
            return try rows(
                "SELECT qts, body FROM qts_updates WHERE owner = ? AND qts > ? ORDER BY qts LIMIT ?",
                [.integer(owner), .integer(qts), .integer(Int64(limit))]
            ) { ($0.int64(0), $0.bytes(1)) }
        }
        return try rows(
            "SELECT qts, body FROM qts_updates WHERE owner = ? AND qts > ? AND (auth_key IS NULL OR auth_key = ?) ORDER BY qts LIMIT ?",
            [.integer(owner), .integer(qts), .integer(authKey), .integer(Int64(limit))]
        ) { ($0.int64(0), $0.bytes(1)) }
    }

    /// Forgets `owner`'s qts updates up to `qts` (`messages.receivedQueue`); returns how many went.
    @discardableResult
    public func dropQtsUpdates(owner: Int64, through qts: Int64) throws(SQLiteError) -> Int {
        try run("DELETE FROM qts_updates WHERE owner = ? AND qts <= ?", [.integer(owner), .integer(qts)])
    }

    /// How many qts updates wait for `owner` (bounded: a client that never acknowledges cannot grow it forever).
    public func pendingQtsCount(owner: Int64) throws(SQLiteError) -> Int64 {
        try integer("SELECT COUNT(*) FROM qts_updates WHERE owner = ?", [.integer(owner)]) ?? 0
    }

    public func insert(_ file: EncryptedFileRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO encrypted_files (id, access_hash, owner, dc, size, sha256, key_fingerprint, date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(file.id), .integer(file.accessHash), .integer(file.owner), .integer(Int64(file.dc)),
                .integer(file.size), .text(file.sha256), .integer(Int64(file.keyFingerprint)),
                .integer(Int64(file.date)),
            ])
    }

    public func encryptedFile(id: Int64) throws(SQLiteError) -> EncryptedFileRecord? {
        try row(
            "SELECT id, access_hash, owner, dc, size, sha256, key_fingerprint, date FROM encrypted_files WHERE id = ?",
            [.integer(id)]
        ) {
            EncryptedFileRecord(
                id: $0.int64(0), accessHash: $0.int64(1), owner: $0.int64(2),
                dc: Int32(truncatingIfNeeded: $0.int64(3)),
                size: $0.int64(4), sha256: $0.text(5), keyFingerprint: Int32(truncatingIfNeeded: $0.int64(6)),
                date: Int32(truncatingIfNeeded: $0.int64(7)))
        }
    }
}
