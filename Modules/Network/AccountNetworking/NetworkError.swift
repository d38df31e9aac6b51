public import MTProtoCore
public import TLRuntime

/// Why a request through an `MTProtoConnection` failed.
public enum NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with `rpc_error`.
    case rpc(code: Int32, message: String)
    /// The server does not know the auth key (transport error −404): create a new one.
    case authKeyUnknown
    /// Another transport error (−429: too many connections from this address, …).
    case transport(code: Int32)
    /// The auth-key exchange failed one of its checks.
    case keyExchange(AuthKeyExchangeError)
    /// The connection closed before the answer came.
    case connectionClosed
    /// The answer could not be decoded as the request's result type.
    case malformedResult(String)
    /// The request's bytes exceed what one MTProto message may carry.
    case requestTooLarge(Int)
    /// An argument cannot be encoded in TL (a `bytes` of 16 MiB or more).
    case encoding(TLEncodingError)
    /// No answer came within the request's time limit.
    case timedOut(Double)

    public var description: String {
        switch self {
        case let .rpc(code, message): return "rpc_error \(code) \(message)"
        case .authKeyUnknown: return "the server does not know this auth key (-404)"
        case .transport(let code): return "transport error \(code)"
        case .keyExchange(let error): return "auth key exchange failed: \(error)"
        case .connectionClosed: return "connection closed"
        case .malformedResult(let detail): return "malformed result: \(detail)"
        case .requestTooLarge(let length):
            return "a request of \(length) bytes is larger than one message may be; upload large data in parts"
        case .encoding(let error): return "cannot encode the request: \(error)"
        case .timedOut(let seconds): return "no answer within \(seconds) s"
        }
    }
}
