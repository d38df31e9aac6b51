import Synchronization

/// Tokens from `auth.exportAuthorization`, by id, until they are imported (once) or expire.
///
/// Bounds: a token lives `lifetime` seconds (5 minutes); expired tokens are dropped on every export, and past
/// `capacity` (10,000) live ones a new token is not kept (its import then answers `AUTH_BYTES_INVALID`).
final class ExportedAuthorizations: Sendable {
    static let defaultCapacity = 10_000
    static let defaultLifetime: Double = 300

    /// One exported authorization: the account, the token's bytes and the DC it may be imported on.
    struct Token: Sendable, Equatable {
        let userId: Int64
        let bytes: [UInt8]
        let dc: Int32
        let expires: Double
    }

    private let tokens = Mutex<[Int64: Token]>([:])
    private let clock: @Sendable () -> Double
    let capacity: Int
    let lifetime: Double

    init(
        clock: @escaping @Sendable () -> Double, capacity: Int = defaultCapacity, lifetime: Double = defaultLifetime
    ) {
        self.clock = clock
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Keeps a token for `userId` to import on `dc`, unless `capacity` live tokens are kept already.
    func keep(id: Int64, userId: Int64, bytes: [UInt8], dc: Int32) {
        let now = clock()
        tokens.withLock { tokens in
            tokens = tokens.filter { $0.value.expires > now }
            guard tokens.count < capacity else { return }
            tokens[id] = Token(userId: userId, bytes: bytes, dc: dc, expires: now + lifetime)
        }
    }

    /// Takes (once) token `id` if it has not expired — and, when `signedInTo` names the account the importing key is
    /// already signed in to, only if the token is that account's (another account's token stays unused).
    func take(id: Int64, keySignedInTo signedInTo: Int64? = nil) -> Token? {
        let now = clock()
        return tokens.withLock { tokens in
            guard let found = tokens[id], found.expires > now else {
                tokens[id] = nil
                return nil
            }
            if let signedInTo, found.userId != signedInTo { return nil }
            tokens[id] = nil
            return found
        }
    }
}
