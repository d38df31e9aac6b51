public import SQLite

/// A device registered for pushes with `account.registerDevice` (core.telegram.org "Handling PUSH-notifications").
public struct PushDeviceRecord: Equatable, Sendable {
    /// 1 is APNs, as Telegram numbers token types.
    public let tokenType: Int32
    public let token: String
    public let userId: Int64
    /// The key that registered it: logging that key out forgets the device.
    public let authKeyId: Int64
    /// The 256-byte secret pushes to this device are encrypted with.
    public let secret: [UInt8]

    public init(tokenType: Int32, token: String, userId: Int64, authKeyId: Int64, secret: [UInt8]) {
        self.tokenType = tokenType
        self.token = token
        self.userId = userId
        self.authKeyId = authKeyId
        self.secret = secret
    }
}

extension StoreTransaction {
    static func pushDevice(_ row: Statement) -> PushDeviceRecord {
        PushDeviceRecord(
            tokenType: Int32(truncatingIfNeeded: row.int64(0)), token: row.text(1), userId: row.int64(2),
            authKeyId: row.int64(3), secret: row.bytes(4))
    }

    /// Registers a device token for an account (again: with its new secret and key). Several accounts may share a
    /// token (one installation); each gets its own pushes.
    public func register(_ device: PushDeviceRecord) throws(SQLiteError) {
        try run(
            """
            INSERT OR REPLACE INTO push_devices (token_type, token, user_id, auth_key_id, secret) VALUES (?, ?, ?, ?, ?)
            """,
            [
                .integer(Int64(device.tokenType)), .text(device.token), .integer(device.userId),
                .integer(device.authKeyId),
                .blob(device.secret),
            ])
    }

    /// Forgets a token registered by `userId`; returns whether there was one.
    @discardableResult
    public func unregisterDevice(tokenType: Int32, token: String, userId: Int64) throws(SQLiteError) -> Bool {
        try run(
            "DELETE FROM push_devices WHERE token_type = ? AND token = ? AND user_id = ?",
            [.integer(Int64(tokenType)), .text(token), .integer(userId)]) > 0
    }

    /// Forgets every device an auth key registered (it logged out).
    public func unregisterDevices(authKeyId: Int64) throws(SQLiteError) {
        try run("DELETE FROM push_devices WHERE auth_key_id = ?", [.integer(authKeyId)])
    }

    /// The devices an account's pushes go to.
    public func pushDevices(userId: Int64) throws(SQLiteError) -> [PushDeviceRecord] {
        try rows(
            "SELECT token_type, token, user_id, auth_key_id, secret FROM push_devices WHERE user_id = ? ORDER BY token",
            [.integer(userId)], Self.pushDevice)
    }
}
