/// Re-keying for forward secrecy (core.telegram.org/api/end-to-end/pfs), without I/O:
///
/// ```
/// A: idle ─ requestKey(exchange_id, g_a) ─▶ requesting(a)
/// B: idle ─ on requestKey: g_a checked, b, new key ─ acceptKey(id, g_b, fp) ─▶ accepted(new key)   (old key still used)
/// A: requesting ─ on acceptKey: g_b checked, key, fp compared ─ commitKey(id, fp) ─▶ idle, new key in use
/// B: accepted ─ on commitKey: fp compared ─▶ idle, new key in use (then a noop under it)
/// ```
/// A mismatch on either side sends `abortKey(id)` and both return to idle with the old key. When both sides ask at
/// once, the request with the larger exchange_id goes on and the other side abandons its own. A key is replaced
/// after it has sealed and opened 100 messages, or after a week once it has sealed at least one.
public enum SecretChatRekeyState: Sendable, Codable, Equatable {
    case idle
    /// This side asked; `a` is its secret.
    case requesting(exchangeId: Int64, a: [UInt8])
    /// This side accepted the other's request and holds the new key until `commitKey`.
    case accepted(exchangeId: Int64, key: SecretChatKey)

    public var isIdle: Bool { self == .idle }

    /// The exchange in progress, if any.
    public var exchangeId: Int64? {
        switch self {
        case .idle: return nil
        case .requesting(let id, _), .accepted(let id, _): return id
        }
    }
}

/// When a key is due for replacement.
public struct SecretChatRekeyPolicy: Sendable, Equatable {
    /// Messages sealed and opened with one key before it is replaced (the docs' 100).
    public var messageLimit: Int
    /// Seconds a key is used (once it has sealed a message) before it is replaced (the docs' week).
    public var ageLimit: Int32

    public init(messageLimit: Int = 100, ageLimit: Int32 = 7 * 24 * 3600) {
        self.messageLimit = messageLimit
        self.ageLimit = ageLimit
    }

    public static let standard = SecretChatRekeyPolicy()

    func isDue(usage: SecretChatKeyUsage, now: Int32) -> Bool {
        if usage.sealed + usage.opened >= messageLimit { return true }
        return usage.sealed > 0 && now - usage.since >= ageLimit
    }
}

/// How much the key in use has been used, and since when.
public struct SecretChatKeyUsage: Sendable, Codable, Equatable {
    public var sealed: Int = 0
    public var opened: Int = 0
    public var since: Int32

    init(since: Int32) { self.since = since }
}

extension SecretChatRekeyState: CustomStringConvertible {
    /// The state and exchange id, never `a` or the pending key.
    public var description: String {
        switch self {
        case .idle: return "idle"
        case .requesting(let id, _): return "requesting(\(id), <redacted>)"
        case .accepted(let id, let key): return "accepted(\(id), fingerprint \(key.fingerprint), <redacted>)"
        }
    }
}
