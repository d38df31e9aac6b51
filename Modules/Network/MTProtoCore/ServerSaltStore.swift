/// The server salts a session may use (MTProto §Server Salt): each valid in a time window. The client uses the
/// salt valid now and learns new ones from `future_salts`, `bad_server_salt` and `new_session_created`.
public struct ServerSaltStore: Sendable, Equatable {
    /// One salt and when it is valid (Unix seconds, server time).
    public struct Salt: Sendable, Equatable {
        public let validSince: Int32
        public let validUntil: Int32
        public let salt: Int64

        public init(validSince: Int32, validUntil: Int32, salt: Int64) {
            self.validSince = validSince
            self.validUntil = validUntil
            self.salt = salt
        }
    }

    private(set) var salts: [Salt] = []
    /// The salt to use when none is known to be valid (the one the last bad_server_salt or handshake gave).
    public private(set) var fallback: Int64

    public init(initial: Int64 = 0) {
        fallback = initial
    }

    /// The salt to put in a message sent at server time `now`.
    public func current(now: Double) -> Int64 {
        let t = Int32(clamping: Int64(now))
        return salts.first { $0.validSince <= t && t < $0.validUntil }?.salt ?? fallback
    }

    /// Replaces everything with one salt the server just named (bad_server_salt, new_session_created).
    public mutating func reset(to salt: Int64) {
        fallback = salt
        salts.removeAll()
    }

    /// Adds salts from future_salts, dropping expired ones (as of `now`).
    public mutating func add(_ new: [Salt], now: Double) {
        let t = Int32(clamping: Int64(now))
        salts = (salts + new).filter { $0.validUntil > t }.sorted { $0.validSince < $1.validSince }
        var unique: [Salt] = []
        for salt in salts where !unique.contains(salt) { unique.append(salt) }
        salts = unique
    }

    /// Whether fewer than `minimumAhead` seconds of known salts remain, so it is time to ask for more.
    public func needsMoreSalts(now: Double, minimumAhead: Double = 30 * 60) -> Bool {
        let last = salts.map(\.validUntil).max() ?? 0
        return Double(last) - now < minimumAhead
    }
}
