public import CryptoUtils

/// Why an SRP step was refused (core.telegram.org "Two-factor authentication"). Descriptions say what was wrong,
/// where, and what to do; none carries a password, a secret exponent or a verifier.
public enum SRPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `p` and `g` failed the checks a client must make (not a safe 2048-bit prime, or g not a generator of the
    /// subgroup of order (p − 1) / 2).
    case unsafeGroup(DiffieHellman.Failure)
    /// A value is longer than it may be (`A`, `B`, `p`, a salt, a verifier, `M1`).
    case valueTooLong(what: String, bytes: Int, limit: Int)
    /// A number lies outside the range the page requires (`g_a`, `g_b`, `g_b − k·v`, a new verifier).
    case valueOutOfRange(what: String)
    /// `u = H(g_a | g_b)` is zero: the round must be abandoned.
    case scramblingParameterZero
    /// The proof names another round than the one being checked (`srp_id`; Telegram answers `SRP_ID_INVALID`).
    case wrongRound
    /// `M1` is well formed but does not match: the password is wrong (Telegram answers `PASSWORD_HASH_INVALID`).
    case proofMismatch
    /// A new password's algorithm does not extend the one the server offered (Telegram answers `NEW_SALT_INVALID`).
    case saltMismatch(String)
    /// The big-number arithmetic failed.
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .unsafeGroup(let failure):
            return "SRP: the password algorithm's p and g fail the safe-prime checks (\(failure)) — refuse to send a "
                + "password proof over this group; a genuine server sends a safe 2048-bit prime"
        case .valueTooLong(let what, let bytes, let limit):
            return "SRP: \(what) is \(bytes) bytes, more than the \(limit) allowed — the peer sent a malformed value; "
                + "reject the request"
        case .valueOutOfRange(let what):
            return "SRP: \(what) is outside 1 < value < p − 1 or closer than 2^(2048−64) to either end — reject it "
                + "and start a new round (account.getPassword)"
        case .scramblingParameterZero:
            return "SRP: u = H(g_a | g_b) is zero — abandon this round and start a new one (account.getPassword)"
        case .wrongRound:
            return "SRP: the proof's srp_id is not the current round's — fetch account.getPassword again and retry"
        case .proofMismatch:
            return "SRP: the password proof M1 does not match — the password is wrong; ask for it again"
        case .saltMismatch(let detail):
            return "SRP: \(detail) — build new_algo from account.password's new_algo, appending random bytes to salt1"
        case .crypto(let error):
            return "SRP: big-number arithmetic failed (\(error)) — retry; if it persists the group is malformed"
        }
    }
}
