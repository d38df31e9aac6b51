public import Postbox
public import PostboxCoding
public import ValueBox

/// One chat's notify settings as the server keeps them for the account (Telegram-iOS
/// `TelegramPeerNotificationSettings`; core.telegram.org `peerNotifySettings`): muted until a date, silent, previews.
/// An unset field is the default (the kind's setting, then Telegram's).
public struct TelegramPeerNotificationSettings: Hashable, Sendable {
    /// The date (unix time) the mute ends; `Int32.max` is "forever", 0 unmuted.
    public var muteUntil: Int32?
    /// Notifications without sound.
    public var silent: Bool?
    /// Whether notifications show the message's text.
    public var showPreviews: Bool?

    /// `muteUntil` for "muted forever", as Telegram-iOS sends it.
    public static let mutedForever = Int32.max

    public init(muteUntil: Int32? = nil, silent: Bool? = nil, showPreviews: Bool? = nil) {
        self.muteUntil = muteUntil
        self.silent = silent
        self.showPreviews = showPreviews
    }

    /// Whether no field is set (Telegram's defaults).
    public var isDefault: Bool { muteUntil == nil && silent == nil && showPreviews == nil }

    /// Whether the chat is muted at `date` (unix time).
    public func isMuted(at date: Int32) -> Bool { (muteUntil ?? 0) > date }
}

/// Every chat's notify settings, as Postbox stores them: one preferences entry, as this Postbox has no peer
/// notification settings table (Telegram-iOS keeps them in `PeerNotificationSettingsTable`). Chats with the defaults
/// are not kept; at most `limit` (tg-server's bound), the others dropped.
public struct PeerNotificationSettingsEntry: PreferencesEntry, Equatable {
    /// The preferences key.
    public static let key = ValueBoxKey(Array("peer-notification-settings".utf8))
    /// At most this many chats' settings are kept (tg-server's `notifySettingsLimit`).
    public static let limit = 5000

    public var peers: [PeerId: TelegramPeerNotificationSettings]

    public init(peers: [PeerId: TelegramPeerNotificationSettings] = [:]) {
        self.peers = peers
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let ids = decoder.decodeInt64ArrayForKey("p")
        let mutes = decoder.decodeInt64ArrayForKey("m")
        let flags = decoder.decodeInt32ArrayForKey("f")
        guard mutes.count == ids.count, flags.count == ids.count else {
            throw .typeMismatch(key: "p", expected: "arrays of one length")
        }
        var peers: [PeerId: TelegramPeerNotificationSettings] = [:]
        for index in ids.indices {
            // -1: unset; flags: bit 0 silent set, bit 1 its value, bit 2 previews set, bit 3 its value.
            let flag = flags[index]
            peers[PeerId(ids[index])] = TelegramPeerNotificationSettings(
                muteUntil: mutes[index] < 0 ? nil : Int32(truncatingIfNeeded: mutes[index]),
                silent: flag & 1 != 0 ? flag & 2 != 0 : nil, showPreviews: flag & 4 != 0 ? flag & 8 != 0 : nil)
        }
        self.peers = peers
    }

    public func encode(_ encoder: PostboxEncoder) {
        let sorted = peers.sorted { $0.key.toInt64() < $1.key.toInt64() }
        encoder.encodeInt64Array(sorted.map { $0.key.toInt64() }, forKey: "p")
        encoder.encodeInt64Array(sorted.map { $0.value.muteUntil.map(Int64.init) ?? -1 }, forKey: "m")
        encoder.encodeInt32Array(
            sorted.map { entry in
                let value = entry.value
                var flag: Int32 = 0
                if let silent = value.silent { flag |= 1 | (silent ? 2 : 0) }
                if let previews = value.showPreviews { flag |= 4 | (previews ? 8 : 0) }
                return flag
            }, forKey: "f")
    }

    public func isEqual(to other: PreferencesEntry) -> Bool { (other as? PeerNotificationSettingsEntry) == self }

    /// `peerId`'s settings in `tx` (the defaults when none are stored).
    public static func settings(
        _ peerId: PeerId, transaction tx: Transaction
    ) throws -> TelegramPeerNotificationSettings {
        (try tx.getPreferencesEntry(key: key) as? PeerNotificationSettingsEntry)?.peers[peerId]
            ?? TelegramPeerNotificationSettings()
    }

    /// Every chat's stored settings in `tx`.
    public static func all(transaction tx: Transaction) throws -> [PeerId: TelegramPeerNotificationSettings] {
        (try tx.getPreferencesEntry(key: key) as? PeerNotificationSettingsEntry)?.peers ?? [:]
    }

    /// Sets `peerId`'s settings (the defaults remove them); returns whether they changed.
    @discardableResult
    public static func set(
        _ settings: TelegramPeerNotificationSettings, for peerId: PeerId, transaction tx: Transaction
    ) throws -> Bool {
        var entry = try tx.getPreferencesEntry(key: key) as? PeerNotificationSettingsEntry ?? .init()
        let value: TelegramPeerNotificationSettings? = settings.isDefault ? nil : settings
        guard entry.peers[peerId] != value else { return false }
        entry.peers[peerId] = value
        while entry.peers.count > limit, let any = entry.peers.keys.first(where: { $0 != peerId }) {
            entry.peers[any] = nil
        }
        try tx.setPreferencesEntry(key: key, value: entry)
        return true
    }
}
