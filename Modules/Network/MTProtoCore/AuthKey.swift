import CryptoUtils

/// A 2048-bit MTProto authorization key with its derived identifiers (MTProto §Authorization Key).
public struct AuthKey: Sendable, Equatable {
    /// The 256 key bytes (big-endian g^ab mod p).
    public let bytes: [UInt8]
    /// `auth_key_id`: the low 64 bits of SHA1(auth_key), as sent at the front of every encrypted message.
    public let id: Int64

    /// Wraps 256 key bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 256 else { return nil }
        self.bytes = bytes
        self.id = Int64(bitPattern: MTProtoKeyDerivation.authKeyId(bytes))
    }

    /// `auth_key_aux_hash`: the first 64 bits of SHA1(auth_key).
    public var auxHash: [UInt8] { MTProtoKeyDerivation.authKeyAuxHash(bytes) }
}

extension AuthKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Only the id: key bytes are never printed or logged.
    public var description: String { "AuthKey(id: \(id))" }
    public var debugDescription: String { description }
    /// Only the id, for `dump` and debuggers too.
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
