public import Postbox
public import PostboxCoding

/// Whether this account is in a basic group, and as what (Telegram-iOS `TelegramGroupMembership`).
public enum TelegramGroupMembership: Int32, Hashable, Sendable {
    case member = 0
    case left = 1
    case removed = 2
}

/// A basic group (Telegram-iOS `TelegramGroup`).
public struct TelegramGroup: Peer, Hashable {
    public var id: PeerId
    public var title: String
    public var photo: [TelegramMediaImageRepresentation]
    public var participantCount: Int32
    public var membership: TelegramGroupMembership
    public var isCreator: Bool
    public var isDeactivated: Bool
    /// The supergroup it became, when it was migrated.
    public var migratedTo: PeerId?
    public var creationDate: Int32
    public var version: Int32

    public init(
        id: PeerId, title: String, photo: [TelegramMediaImageRepresentation] = [], participantCount: Int32,
        membership: TelegramGroupMembership, isCreator: Bool = false, isDeactivated: Bool = false,
        migratedTo: PeerId? = nil, creationDate: Int32, version: Int32
    ) {
        self.id = id
        self.title = title
        self.photo = photo
        self.participantCount = participantCount
        self.membership = membership
        self.isCreator = isCreator
        self.isDeactivated = isDeactivated
        self.migratedTo = migratedTo
        self.creationDate = creationDate
        self.version = version
    }

    public var indexName: String? { title.isEmpty ? nil : title }

    public func isEqual(_ other: Peer) -> Bool { (other as? TelegramGroup) == self }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        id = PeerId(try decoder.decodeInt64(forKey: "i"))
        title = try decoder.decodeString(forKey: "t")
        photo = try decoder.decodeOptionalCodable([TelegramMediaImageRepresentation].self, forKey: "ph") ?? []
        participantCount = decoder.decodeInt32ForKey("pc", orElse: 0)
        membership = TelegramGroupMembership(rawValue: decoder.decodeInt32ForKey("m", orElse: 0)) ?? .member
        isCreator = decoder.decodeBoolForKey("c", orElse: false)
        isDeactivated = decoder.decodeBoolForKey("d", orElse: false)
        migratedTo = decoder.decodeOptionalInt64ForKey("mt").map(PeerId.init)
        creationDate = decoder.decodeInt32ForKey("cd", orElse: 0)
        version = decoder.decodeInt32ForKey("v", orElse: 0)
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(id.toInt64(), forKey: "i")
        encoder.encodeString(title, forKey: "t")
        if !photo.isEmpty { encoder.encodeCodable(photo, forKey: "ph") }
        encoder.encodeInt32(participantCount, forKey: "pc")
        encoder.encodeInt32(membership.rawValue, forKey: "m")
        encoder.encodeBool(isCreator, forKey: "c")
        encoder.encodeBool(isDeactivated, forKey: "d")
        if let migratedTo { encoder.encodeInt64(migratedTo.toInt64(), forKey: "mt") }
        encoder.encodeInt32(creationDate, forKey: "cd")
        encoder.encodeInt32(version, forKey: "v")
    }
}
