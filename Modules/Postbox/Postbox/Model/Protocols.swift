public import PostboxCoding

/// A user, group, channel or secret chat as stored by Postbox; TelegramCore's types conform.
public protocol Peer: PostboxCoding, Sendable {
    /// The peer's identity.
    var id: PeerId { get }
    /// Words to match in peer search (names, usernames), if any.
    var indexName: String? { get }
    /// Whether two values describe the same stored peer.
    func isEqual(_ other: Peer) -> Bool
}

extension Peer {
    public var indexName: String? { nil }
}

/// A piece of message media (photo, file, …); media with an id is stored once and shared by reference.
public protocol Media: PostboxCoding, Sendable {
    /// The shared id, or `nil` for media embedded in its message only.
    var id: MediaId? { get }
    /// Whether two values describe the same media.
    func isEqual(to other: Media) -> Bool
}

/// Extra data attached to a message (entities, reply info, …).
public protocol MessageAttribute: PostboxCoding, Sendable {}

/// A peer's online status.
public protocol PeerPresence: PostboxCoding, Sendable {
    func isEqual(to other: PeerPresence) -> Bool
}

/// A value in the preferences table.
public protocol PreferencesEntry: PostboxCoding, Sendable {
    func isEqual(to other: PreferencesEntry) -> Bool
}
