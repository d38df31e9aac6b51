public import Postbox
public import PostboxCoding

/// What kind of account a user is (Telegram-iOS `UserInfoFlags` with the bot flag folded in).
public struct UserInfoFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let isVerified = UserInfoFlags(rawValue: 1 << 0)
    public static let isSupport = UserInfoFlags(rawValue: 1 << 1)
    public static let isScam = UserInfoFlags(rawValue: 1 << 2)
    public static let isFake = UserInfoFlags(rawValue: 1 << 3)
    public static let isPremium = UserInfoFlags(rawValue: 1 << 4)
    public static let isBot = UserInfoFlags(rawValue: 1 << 5)
    public static let isDeleted = UserInfoFlags(rawValue: 1 << 6)
    public static let isContact = UserInfoFlags(rawValue: 1 << 7)
    public static let isMutualContact = UserInfoFlags(rawValue: 1 << 8)
}

/// How the client may address a peer: its own access hash, or one only valid inside a message (`min` constructors).
public enum TelegramPeerAccessHash: Hashable, Sendable {
    case personal(Int64)
    case genericPublic(Int64)

    public var value: Int64 {
        switch self {
        case .personal(let value), .genericPublic(let value): return value
        }
    }
}

/// A user (Telegram-iOS `TelegramUser`).
public struct TelegramUser: Peer, Hashable {
    public var id: PeerId
    public var accessHash: TelegramPeerAccessHash?
    public var firstName: String?
    public var lastName: String?
    public var username: String?
    public var phone: String?
    /// The profile photo's small and big sizes, with the stripped thumbnail on the small one.
    public var photo: [TelegramMediaImageRepresentation]
    public var photoId: Int64?
    public var flags: UserInfoFlags

    public init(
        id: PeerId, accessHash: TelegramPeerAccessHash?, firstName: String?, lastName: String?, username: String?,
        phone: String?, photo: [TelegramMediaImageRepresentation] = [], photoId: Int64? = nil, flags: UserInfoFlags = []
    ) {
        self.id = id
        self.accessHash = accessHash
        self.firstName = firstName
        self.lastName = lastName
        self.username = username
        self.phone = phone
        self.photo = photo
        self.photoId = photoId
        self.flags = flags
    }

    /// "First Last", or the one that is set, or "Deleted Account".
    public var displayTitle: String {
        let parts = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? "Deleted Account" : parts.joined(separator: " ")
    }

    public var indexName: String? {
        let words = [firstName, lastName, username].compactMap { $0 }.filter { !$0.isEmpty }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    public func isEqual(_ other: Peer) -> Bool { (other as? TelegramUser) == self }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        id = PeerId(try decoder.decodeInt64(forKey: "i"))
        if let hash = decoder.decodeOptionalInt64ForKey("ah") {
            accessHash = decoder.decodeBoolForKey("ahp", orElse: true) ? .personal(hash) : .genericPublic(hash)
        } else {
            accessHash = nil
        }
        firstName = decoder.decodeOptionalStringForKey("fn")
        lastName = decoder.decodeOptionalStringForKey("ln")
        username = decoder.decodeOptionalStringForKey("un")
        phone = decoder.decodeOptionalStringForKey("p")
        photo = try decoder.decodeOptionalCodable([TelegramMediaImageRepresentation].self, forKey: "ph") ?? []
        photoId = decoder.decodeOptionalInt64ForKey("phi")
        flags = UserInfoFlags(rawValue: decoder.decodeInt32ForKey("f", orElse: 0))
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(id.toInt64(), forKey: "i")
        if let accessHash {
            encoder.encodeInt64(accessHash.value, forKey: "ah")
            if case .genericPublic = accessHash { encoder.encodeBool(false, forKey: "ahp") }
        }
        if let firstName { encoder.encodeString(firstName, forKey: "fn") }
        if let lastName { encoder.encodeString(lastName, forKey: "ln") }
        if let username { encoder.encodeString(username, forKey: "un") }
        if let phone { encoder.encodeString(phone, forKey: "p") }
        if !photo.isEmpty { encoder.encodeCodable(photo, forKey: "ph") }
        if let photoId { encoder.encodeInt64(photoId, forKey: "phi") }
        encoder.encodeInt32(flags.rawValue, forKey: "f")
    }
}
