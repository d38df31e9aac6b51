public import CryptoUtils

/// The password hashing of `passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow`
/// (core.telegram.org "Two-factor authentication", "Checking the password with SRP"): with `H` = SHA-256,
///
///     SH(data, salt)                := H(salt | data | salt)
///     PH1(password, salt1, salt2)   := SH(SH(password, salt1), salt2)
///     PH2(password, salt1, salt2)   := SH(pbkdf2(sha512, PH1(password, salt1, salt2), salt1, 100000), salt2)
///
/// and SRP's private key `x` is PH2 read as a big-endian number. The password is its UTF-8 bytes.
public enum PasswordKDF {
    /// PBKDF2-HMAC-SHA512's iteration count in this algorithm.
    public static let iterations = 100_000

    /// `SH(data, salt) = H(salt | data | salt)`.
    public static func sh(_ data: [UInt8], salt: [UInt8]) -> [UInt8] { Digest.sha256(salt, data, salt) }

    /// `PH1(password, salt1, salt2) = SH(SH(password, salt1), salt2)`.
    public static func ph1(password: [UInt8], salt1: [UInt8], salt2: [UInt8]) -> [UInt8] {
        sh(sh(password, salt: salt1), salt: salt2)
    }

    /// `PH2(password, salt1, salt2)`: PH1 stretched by PBKDF2-HMAC-SHA512 (100,000 iterations, salt `salt1`, 64
    /// bytes), then `SH(·, salt2)`. 32 bytes; costs the 100,000 iterations (tens of milliseconds).
    public static func ph2(password: [UInt8], salt1: [UInt8], salt2: [UInt8]) throws(CryptoError) -> SRPPasswordHash {
        let inner = ph1(password: password, salt1: salt1, salt2: salt2)
        let stretched = try PBKDF2.sha512(password: inner, salt: salt1, iterations: iterations, length: 64)
        return SRPPasswordHash(x: sh(stretched, salt: salt2))
    }

    /// `PH2` with the salts of `algorithm`; `password` is encoded as UTF-8.
    public static func ph2(password: String, algorithm: SRPAlgorithm) throws(CryptoError) -> SRPPasswordHash {
        try ph2(password: Array(password.utf8), salt1: algorithm.salt1, salt2: algorithm.salt2)
    }
}

/// SRP's private key `x = PH2(password, salt1, salt2)` (32 bytes, a big-endian number). Anyone holding it can pass
/// the password check, so its description and mirror hide it.
public struct SRPPasswordHash: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 32 bytes of PH2, big-endian.
    public let x: [UInt8]

    /// Wraps a PH2 value computed elsewhere.
    public init(x: [UInt8]) { self.x = x }

    public var description: String { "SRPPasswordHash(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
