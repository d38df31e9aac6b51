/// Why a cryptographic operation failed.
public enum CryptoError: Error, Equatable, Sendable {
    /// A key, IV or input has the wrong length.
    case invalidLength(what: String, expected: String, actual: Int)
    /// A value is outside the range the operation accepts (RSA input ≥ n, non-canonical numbers).
    case outOfRange(String)
    /// OpenSSL reported a failure.
    case openSSL(String)
    /// A key could not be decoded.
    case invalidKey(String)
}
