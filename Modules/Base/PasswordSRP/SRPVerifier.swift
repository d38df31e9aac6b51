import CryptoUtils

/// The password verifier `v := pow(g, x) mod p` (core.telegram.org "Two-factor authentication"), 256 bytes
/// big-endian: the `new_password_hash` of `account.passwordInputSettings`. The client computes it when it sets a
/// password (`SRPClient.newPassword`; Telethon's `compute_digest`, Telegram-iOS's `passwordUpdateKDF`) and the
/// server stores it with the salts; the server never sees the password.
///
/// Not a secret in SRP's sense, but it lets whoever holds it test guesses offline, so its description and mirror
/// show only its length.
public struct SRPVerifier: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `v`, padded to 256 bytes.
    public let bytes: [UInt8]

    /// `v = g^x mod p` for `password` under `algorithm` (one PH2: 100,000 PBKDF2 iterations). `x` is a secret
    /// exponent, so the exponentiation is the constant-time one.
    public init(password: String, algorithm: SRPAlgorithm) throws(SRPError) {
        let x = try SRPMath.crypto { () throws(CryptoError) in
            try PasswordKDF.ph2(password: password, algorithm: algorithm)
        }
        try self.init(x: x, algorithm: algorithm)
    }

    /// `v = g^x mod p` for an already derived `x`. A `g` outside 2…7 is refused (`.unsafeGroup`).
    public init(x: SRPPasswordHash, algorithm: SRPAlgorithm) throws(SRPError) {
        guard (2...7).contains(algorithm.g) else { throw .unsafeGroup(.generatorOutOfRange(algorithm.g)) }
        bytes = try SRPMath.crypto { () throws(CryptoError) in
            SRPMath.padded(try DiffieHellman.publicValue(g: algorithm.g, secret: x.x, prime: algorithm.p))
        }
    }

    /// The server's side of `account.updatePasswordSettings`: checks a client's `new_password_hash` and the
    /// `new_algo` it came with against the `new_algo` the server offered in `account.password`, and returns the
    /// verifier to store (with `algorithm` as the account's `current_algo`).
    ///
    /// - `algorithm` must keep the offered `g`, `p` and `salt2`, and its `salt1` must begin with the offered
    ///   `salt1` (the client appends its own random bytes) and be at most `SRPAlgorithm.maximumSaltLength` long;
    ///   otherwise `.saltMismatch` (Telegram answers `NEW_SALT_INVALID`).
    /// - `v` must be at most 256 bytes and `1 < v < p − 1` (`.valueTooLong` / `.valueOutOfRange`; Telegram answers
    ///   `NEW_SETTINGS_INVALID`).
    public static func accept(
        newPasswordHash v: [UInt8], algorithm: SRPAlgorithm, offered: SRPAlgorithm
    ) throws(SRPError) -> SRPVerifier {
        guard algorithm.g == offered.g, algorithm.p == offered.p else {
            throw .saltMismatch("the new algorithm's g or p differs from the one offered")
        }
        guard algorithm.salt2 == offered.salt2 else {
            throw .saltMismatch("the new algorithm's salt2 differs from the one offered")
        }
        guard algorithm.salt1.count <= SRPAlgorithm.maximumSaltLength else {
            throw .valueTooLong(what: "salt1", bytes: algorithm.salt1.count, limit: SRPAlgorithm.maximumSaltLength)
        }
        guard algorithm.salt1.starts(with: offered.salt1) else {
            throw .saltMismatch("the new salt1 does not begin with the offered salt1")
        }
        guard v.count <= SRPMath.numberLength else {
            throw .valueTooLong(what: "new_password_hash", bytes: v.count, limit: SRPMath.numberLength)
        }
        let pMinusOne = try SRPMath.crypto { () throws(CryptoError) in try SRPMath.groupOrder(algorithm) }
        guard BigNum.compare(v, [1]) > 0, BigNum.compare(v, pMinusOne) < 0 else {
            throw .valueOutOfRange(what: "new_password_hash")
        }
        return SRPVerifier(checked: SRPMath.padded(v))
    }

    /// A verifier read back from storage (256 bytes or fewer, big-endian); the caller checked it when it was set.
    public init(stored bytes: [UInt8]) throws(SRPError) {
        guard bytes.count <= SRPMath.numberLength else {
            throw .valueTooLong(what: "stored verifier", bytes: bytes.count, limit: SRPMath.numberLength)
        }
        self.bytes = SRPMath.padded(bytes)
    }

    private init(checked bytes: [UInt8]) { self.bytes = bytes }

    public var description: String { "SRPVerifier(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
