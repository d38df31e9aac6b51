/// What a completed auth-key exchange yields, on either side.
public struct AuthKeyExchangeResult: Sendable, Equatable {
    public let authKey: AuthKey
    /// The first server salt: new_nonce[0..<8] ⊕ server_nonce[0..<8], as a little-endian integer.
    public let serverSalt: Int64
    /// server_time − local time at the exchange, in seconds (the client's clock correction).
    public let timeOffset: Double
    /// For a temporary key (`p_q_inner_data_temp*`, core.telegram.org "Perfect Forward Secrecy"), the Unix time
    /// at which it expires; nil for a permanent key.
    public let expiresAt: Double?

    /// A key as saved by an earlier connection.
    public init(authKey: AuthKey, serverSalt: Int64, timeOffset: Double, expiresAt: Double? = nil) {
        self.authKey = authKey
        self.serverSalt = serverSalt
        self.timeOffset = timeOffset
        self.expiresAt = expiresAt
    }
}

extension Array where Element == UInt8 {
    /// The first 8 bytes as a little-endian integer.
    var littleEndianInt64: Int64 {
        var value: UInt64 = 0
        for (i, byte) in prefix(8).enumerated() { value |= UInt64(byte) << (8 * i) }
        return Int64(bitPattern: value)
    }
}
