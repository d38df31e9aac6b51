public import CryptoUtils
public import TLRuntime

/// Why an auth-key exchange stopped. Every check of MTProto §Creating an Authorization Key and of the security
/// guidelines' mandatory checks has a case; the exchange must then be abandoned (and a server closes the
/// connection).
public enum AuthKeyExchangeError: Error, Equatable, Sendable {
    case unexpectedMessage(String)
    case nonceMismatch
    case serverNonceMismatch
    case newNonceHashMismatch
    /// None of the server's fingerprints belongs to a key this client trusts.
    case unknownFingerprint([Int64])
    case pqNotFactorable
    case pqMismatch
    case answerHashMismatch
    case dh(DiffieHellman.Failure)
    case crypto(CryptoError)
    case decoding(TLDecodingError)
    /// The server answered dh_gen_fail or server_DH_params_fail.
    case refusedByServer
    /// Too many dh_gen_retry rounds.
    case tooManyRetries
}
