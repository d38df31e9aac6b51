/// Tokens from `auth.exportAuthorization`, by id, until they are imported (once) or expire.
///
/// Bounds (`ExpiringTable`): a token lives `lifetime` seconds (5 minutes); past `capacity` (10,000) live ones a new
/// token is not kept (its import then answers `AUTH_BYTES_INVALID`).
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

    private let tokens: ExpiringTable<Token>

    init(
        clock: @escaping @Sendable () -> Double, capacity: Int = defaultCapacity, lifetime: Double = defaultLifetime
    ) {
        tokens = ExpiringTable(clock: clock, capacity: capacity, lifetime: lifetime)
    }

    /// Keeps a token for `userId` to import on `dc`, unless `capacity` live tokens are kept already.
    func keep(id: Int64, userId: Int64, bytes: [UInt8], dc: Int32) {
        tokens.keep(id, Token(userId: userId, bytes: bytes, dc: dc, expires: tokens.expiryOfNew))
    }

    /// Takes (once) token `id` if it has not expired — and, when `signedInTo` names the account the importing key is
    /// already signed in to, only if the token is that account's (another account's token stays unused).
    func take(id: Int64, keySignedInTo signedInTo: Int64? = nil) -> Token? {
        tokens.take(id) { token in signedInTo.map { token.userId == $0 } ?? true }
    }
}
