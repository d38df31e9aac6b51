/// An account's number in the account manager; names its folder `account-<id>`.
public struct AccountRecordId: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: AccountRecordId, rhs: AccountRecordId) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// One account as the account manager lists it (Telegram-iOS `AccountRecord`): signed in as a user, or still signing
/// in (what the sign-in screens show then is in the account's own Postbox, as `UnauthorizedAccountState`).
public struct AccountRecord: Equatable, Sendable, Codable {
    public enum Kind: Equatable, Sendable, Codable {
        case unauthorized
        case authorized(userId: Int64)
    }

    public let id: AccountRecordId
    public var kind: Kind
    /// Unix time the record was made.
    public var created: Int32

    public init(id: AccountRecordId, kind: Kind, created: Int32) {
        self.id = id
        self.kind = kind
        self.created = created
    }
}
