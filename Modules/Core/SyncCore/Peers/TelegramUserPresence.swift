public import Postbox
public import PostboxCoding

/// What the server last said about a user's online status (Telegram-iOS `UserPresenceStatus`, from the
/// `userStatus*` constructors of core.telegram.org).
public enum UserPresenceStatus: Hashable, Sendable {
    /// Never seen, or a long time ago (`userStatusEmpty`).
    case none
    /// Online until this unix time (`userStatusOnline`); after it, offline since then.
    case present(until: Int32)
    /// Offline since this unix time (`userStatusOffline`).
    case offline(since: Int32)
    /// The exact time is hidden by privacy: within a few days, a week, a month (`userStatusRecently`, …).
    case recently
    case lastWeek
    case lastMonth
}

/// A user's presence as stored in Postbox's presence table (Telegram-iOS `TelegramUserPresence`).
public struct TelegramUserPresence: PeerPresence, Hashable {
    public var status: UserPresenceStatus

    public init(status: UserPresenceStatus) {
        self.status = status
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let value = decoder.decodeInt32ForKey("t", orElse: 0)
        switch decoder.decodeInt32ForKey("v", orElse: 0) {
        case 1: status = .present(until: value)
        case 2: status = .offline(since: value)
        case 3: status = .recently
        case 4: status = .lastWeek
        case 5: status = .lastMonth
        default: status = .none
        }
    }

    public func encode(_ encoder: PostboxEncoder) {
        let (kind, value): (Int32, Int32)
        switch status {
        case .none: (kind, value) = (0, 0)
        case .present(let until): (kind, value) = (1, until)
        case .offline(let since): (kind, value) = (2, since)
        case .recently: (kind, value) = (3, 0)
        case .lastWeek: (kind, value) = (4, 0)
        case .lastMonth: (kind, value) = (5, 0)
        }
        encoder.encodeInt32(kind, forKey: "v")
        encoder.encodeInt32(value, forKey: "t")
    }

    public func isEqual(to other: PeerPresence) -> Bool { (other as? TelegramUserPresence) == self }

    /// Whether the user is online at `now`.
    public func isOnline(at now: Int32) -> Bool {
        if case .present(let until) = status { return until > now }
        return false
    }

    /// The status line Telegram's apps show under a user's name (Telegram-iOS `stringAndActivityForUserPresence`):
    /// "online", "last seen just now", "last seen 5 minutes ago", "last seen 3 hours ago", "last seen 2027-01-15",
    /// "last seen recently", "last seen within a week", "last seen within a month", "last seen a long time ago".
    public func statusText(at now: Int32) -> String {
        switch status {
        case .present(let until) where until > now: return "online"
        case .present(let since), .offline(let since): return Self.lastSeen(since, now: now)
        case .recently: return "last seen recently"
        case .lastWeek: return "last seen within a week"
        case .lastMonth: return "last seen within a month"
        case .none: return "last seen a long time ago"
        }
    }

    static func lastSeen(_ since: Int32, now: Int32) -> String {
        let seconds = max(0, Int64(now) - Int64(since))
        if seconds < 60 { return "last seen just now" }
        if seconds < 3600 {
            let minutes = seconds / 60
            return "last seen \(minutes) minute\(minutes == 1 ? "" : "s") ago"
        }
        if seconds < 86_400 {
            let hours = seconds / 3600
            return "last seen \(hours) hour\(hours == 1 ? "" : "s") ago"
        }
        return "last seen \(Self.day(since))"
    }

    /// `yyyy-MM-dd` in UTC, without Foundation (days since the epoch to a civil date, Howard Hinnant's algorithm).
    static func day(_ time: Int32) -> String {
        let days = Int64(time) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}
