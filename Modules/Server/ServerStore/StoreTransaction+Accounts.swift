public import SQLite

extension StoreTransaction {
    static let userColumns = "id, access_hash, phone, first_name, last_name, username, about, dc, created, photo"

    static func user(_ row: Statement) -> UserRecord {
        UserRecord(
            id: row.int64(0), accessHash: row.int64(1), phone: row.text(2), firstName: row.text(3),
            lastName: row.text(4), username: row.optionalText(5), about: row.text(6),
            dc: Int32(truncatingIfNeeded: row.int64(7)),
            created: Int32(truncatingIfNeeded: row.int64(8)), photo: row.optionalBytes(9))
    }

    /// The account with `id`.
    public func user(id: Int64) throws(SQLiteError) -> UserRecord? {
        try row("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.integer(id)], Self.user)
    }

    /// The accounts with these ids that exist, in no particular order.
    public func users(ids: some Sequence<Int64>) throws(SQLiteError) -> [UserRecord] {
        var result: [UserRecord] = []
        for id in Set(ids) { if let user = try user(id: id) { result.append(user) } }
        return result
    }

    /// The account registered with `phone` (digits only).
    public func user(phone: String) throws(SQLiteError) -> UserRecord? {
        try row("SELECT \(Self.userColumns) FROM users WHERE phone = ?", [.text(phone)], Self.user)
    }

    /// The account whose username is `username`, compared without case.
    public func user(username: String) throws(SQLiteError) -> UserRecord? {
        try row(
            "SELECT \(Self.userColumns) FROM users WHERE username_key = ?", [.text(username.lowercased())], Self.user)
    }

    /// The accounts `owner` may find by `prefix` (core.telegram.org method `contacts.search`): `contacts`, those in
    /// their contact list whose username, own name or name as saved starts with it; `others`, anyone else whose
    /// public username starts with it — never a stranger by name. Case-insensitive; at most `limit` of each.
    public func searchUsers(
        prefix: String, owner: Int64, limit: Int
    ) throws(SQLiteError) -> (contacts: [UserRecord], others: [UserRecord]) {
        var pattern = ""
        for character in prefix.lowercased() {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern.append("%")
        let columns = Self.userColumns.split(separator: ", ").map { "u.\($0)" }.joined(separator: ", ")
        let contacts = try rows(
            """
            SELECT \(columns) FROM contacts c JOIN users u ON u.id = c.user_id WHERE c.owner = ?3 AND (
                u.username_key LIKE ?1 ESCAPE '\\' OR lower(u.first_name) LIKE ?1 ESCAPE '\\' OR lower(u.last_name) LIKE ?1 ESCAPE '\\'
                OR lower(c.first_name) LIKE ?1 ESCAPE '\\' OR lower(c.last_name) LIKE ?1 ESCAPE '\\')
            ORDER BY u.id LIMIT ?2
            """, [.text(pattern), .integer(Int64(limit)), .integer(owner)], Self.user)
        let others = try rows(
            """
            SELECT \(Self.userColumns) FROM users WHERE username_key LIKE ?1 ESCAPE '\\'
                AND id NOT IN (SELECT user_id FROM contacts WHERE owner = ?3) ORDER BY id LIMIT ?2
            """, [.text(pattern), .integer(Int64(limit)), .integer(owner)], Self.user)
        return (contacts, others)
    }

    /// Stores a new account and its update state (pts 0, message ids from 1).
    public func insert(_ user: UserRecord) throws(SQLiteError) {
        try run(
            """
            INSERT INTO users (\(Self.userColumns), username_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(user.id), .integer(user.accessHash), .text(user.phone), .text(user.firstName),
                .text(user.lastName), .optional(user.username), .text(user.about), .integer(Int64(user.dc)),
                .integer(Int64(user.created)), .optional(user.photo), .optional(user.username?.lowercased()),
            ])
        try run(
            "INSERT INTO user_state (user_id, pts, qts, seq, date, next_message_id) VALUES (?, 0, 0, 0, ?, 1)",
            [.integer(user.id), .integer(Int64(user.created))])
    }

    /// Replaces an account's profile fields (names, username, about, photo).
    public func update(_ user: UserRecord) throws(SQLiteError) {
        try run(
            """
            UPDATE users SET first_name = ?, last_name = ?, username = ?, username_key = ?, about = ?, photo = ?
            WHERE id = ?
            """,
            [
                .text(user.firstName), .text(user.lastName), .optional(user.username),
                .optional(user.username?.lowercased()), .text(user.about), .optional(user.photo), .integer(user.id),
            ])
    }

    /// The next value of the named counter (1, 2, …), for ids that must never repeat.
    public func nextValue(of counter: String) throws(SQLiteError) -> Int64 {
        try run(
            "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            [.text(counter)])
        return try integer("SELECT value FROM counters WHERE name = ?", [.text(counter)]) ?? 1
    }

    // MARK: - Authorizations

    /// The authorization of an auth key.
    public func authorization(authKeyId: Int64) throws(SQLiteError) -> AuthorizationRecord? {
        try row(
            "SELECT auth_key_id, user_id, dc, created, device, platform, app FROM authorizations WHERE auth_key_id = ?",
            [.integer(authKeyId)], Self.authorization)
    }

    /// Every authorization of an account.
    public func authorizations(userId: Int64) throws(SQLiteError) -> [AuthorizationRecord] {
        try rows(
            "SELECT auth_key_id, user_id, dc, created, device, platform, app FROM authorizations WHERE user_id = ? ORDER BY created",
            [.integer(userId)], Self.authorization)
    }

    static func authorization(_ row: Statement) -> AuthorizationRecord {
        AuthorizationRecord(
            authKeyId: row.int64(0), userId: row.int64(1), dc: Int32(truncatingIfNeeded: row.int64(2)),
            created: Int32(truncatingIfNeeded: row.int64(3)), device: row.text(4), platform: row.text(5),
            app: row.text(6))
    }

    /// Binds an auth key to an account, replacing what the key was bound to.
    public func insert(_ authorization: AuthorizationRecord) throws(SQLiteError) {
        try run(
            """
            INSERT OR REPLACE INTO authorizations (auth_key_id, user_id, dc, created, device, platform, app)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(authorization.authKeyId), .integer(authorization.userId), .integer(Int64(authorization.dc)),
                .integer(Int64(authorization.created)), .text(authorization.device), .text(authorization.platform),
                .text(authorization.app),
            ])
    }

    /// Signs an auth key out; returns whether it was signed in.
    @discardableResult
    public func deleteAuthorization(authKeyId: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM authorizations WHERE auth_key_id = ?", [.integer(authKeyId)]) > 0
    }

    /// Signs out every key of `userId` except `keeping`; returns the keys signed out.
    public func deleteAuthorizations(userId: Int64, keeping: Int64) throws(SQLiteError) -> [Int64] {
        let keys = try rows(
            "SELECT auth_key_id FROM authorizations WHERE user_id = ? AND auth_key_id != ?",
            [.integer(userId), .integer(keeping)]
        ) { $0.int64(0) }
        try run(
            "DELETE FROM authorizations WHERE user_id = ? AND auth_key_id != ?", [.integer(userId), .integer(keeping)])
        return keys
    }

    // MARK: - Login codes

    /// The code last sent to `phone`.
    public func phoneCode(phone: String) throws(SQLiteError) -> PhoneCodeRecord? {
        try row("SELECT phone, code_hash, code, expires, attempts FROM phone_codes WHERE phone = ?", [.text(phone)]) {
            PhoneCodeRecord(
                phone: $0.text(0), codeHash: $0.text(1), code: $0.text(2),
                expires: Int32(truncatingIfNeeded: $0.int64(3)),
                attempts: Int($0.int64(4)))
        }
    }

    /// Stores the code sent to a phone, replacing an earlier one.
    public func insert(_ code: PhoneCodeRecord) throws(SQLiteError) {
        try run(
            "INSERT OR REPLACE INTO phone_codes (phone, code_hash, code, expires, attempts) VALUES (?, ?, ?, ?, ?)",
            [
                .text(code.phone), .text(code.codeHash), .text(code.code), .integer(Int64(code.expires)),
                .integer(Int64(code.attempts)),
            ])
    }

    /// Counts a wrong guess of `phone`'s code.
    public func countCodeAttempt(phone: String) throws(SQLiteError) {
        try run("UPDATE phone_codes SET attempts = attempts + 1 WHERE phone = ?", [.text(phone)])
    }

    /// Forgets `phone`'s code (used, or cancelled).
    public func deletePhoneCode(phone: String) throws(SQLiteError) {
        try run("DELETE FROM phone_codes WHERE phone = ?", [.text(phone)])
    }
}

extension StoreTransaction {
    /// Adds (or renames) a contact in `owner`'s list.
    public func addContact(owner: Int64, userId: Int64, firstName: String, lastName: String) throws(SQLiteError) {
        try run(
            "INSERT OR REPLACE INTO contacts (owner, user_id, first_name, last_name) VALUES (?, ?, ?, ?)",
            [.integer(owner), .integer(userId), .text(firstName), .text(lastName)])
    }

    /// Removes `userId` from `owner`'s contact list (nothing when it is not there); whether it was there.
    @discardableResult
    public func deleteContact(owner: Int64, userId: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM contacts WHERE owner = ? AND user_id = ?", [.integer(owner), .integer(userId)]) > 0
    }

    /// The ids in `owner`'s contact list.
    public func contacts(owner: Int64) throws(SQLiteError) -> [Int64] {
        try rows("SELECT user_id FROM contacts WHERE owner = ? ORDER BY user_id", [.integer(owner)]) { $0.int64(0) }
    }
}

extension StoreTransaction {
    /// `userId`'s two-step verification password, if they set one.
    public func password(userId: Int64) throws(SQLiteError) -> PasswordRecord? {
        try row(
            "SELECT user_id, salt1, salt2, g, p, verifier, hint FROM passwords WHERE user_id = ?", [.integer(userId)]
        ) {
            PasswordRecord(
                userId: $0.int64(0), salt1: $0.bytes(1), salt2: $0.bytes(2), g: Int32(truncatingIfNeeded: $0.int64(3)),
                p: $0.bytes(4),
                verifier: $0.bytes(5), hint: $0.text(6))
        }
    }

    /// Sets (or, with `nil`, removes) `userId`'s password.
    public func setPassword(_ password: PasswordRecord?, userId: Int64) throws(SQLiteError) {
        guard let password else {
            try run("DELETE FROM passwords WHERE user_id = ?", [.integer(userId)])
            return
        }
        try run(
            "INSERT OR REPLACE INTO passwords (user_id, salt1, salt2, g, p, verifier, hint) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(userId), .blob(password.salt1), .blob(password.salt2), .integer(Int64(password.g)),
                .blob(password.p),
                .blob(password.verifier), .text(password.hint),
            ])
    }
}
