import Synchronization

/// Which account each auth key is signed in to, as far as this run has seen: a cache of the store's authorizations
/// (a miss is looked up there). It needs no bound of its own: an entry exists only for a key with a stored
/// authorization, and is forgotten when that authorization is deleted (`auth.logOut`, `auth.resetAuthorizations`).
final class SignedInKeys: Sendable {
    /// The account a key is signed in to, and that account's DC.
    struct Account: Sendable, Equatable {
        let userId: Int64
        let homeDc: Int32
    }

    private let accounts = Mutex<[Int64: Account]>([:])

    /// The account `authKeyId` is known to be signed in to, if this run has seen it.
    func account(authKeyId: Int64) -> Account? {
        accounts.withLock { $0[authKeyId] }
    }

    /// Notes that `authKeyId` is signed in to `account`.
    func remember(_ account: Account, authKeyId: Int64) {
        accounts.withLock { $0[authKeyId] = account }
    }

    /// Forgets `authKeyId`, whose authorization was deleted.
    func forget(authKeyId: Int64) {
        accounts.withLock { $0[authKeyId] = nil }
    }
}
