import CryptoUtils

/// The server salts of each auth key (MTProto §Server Salt): a new salt every 30 minutes, derived from a server
/// secret, the key id and the period number, so no salt needs storing. A message may carry the salt of the current
/// or the previous period, or the salt the key exchange produced during the key's first period.
public struct SaltSchedule: Sendable {
    public static let period: Int64 = 1800
    private let secret: [UInt8]

    /// `secret` never leaves the server (it is derived from the RSA private key).
    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The salt of `authKeyId` for the period containing `time`.
    public func salt(authKeyId: Int64, time: Double) -> Int64 {
        salt(authKeyId: authKeyId, periodNumber: Int64(time) / Self.period)
    }

    func salt(authKeyId: Int64, periodNumber: Int64) -> Int64 {
        var input = secret
        withUnsafeBytes(of: authKeyId.littleEndian) { input += $0 }
        withUnsafeBytes(of: periodNumber.littleEndian) { input += $0 }
        let digest = Digest.sha256(input)
        return digest.prefix(8).enumerated().reduce(Int64(0)) { $0 | Int64($1.element) << (8 * $1.offset) }
    }

    /// Whether `salt` is acceptable at `time`.
    public func isValid(_ salt: Int64, authKeyId: Int64, time: Double, handshakeSalt: Int64?) -> Bool {
        let k = Int64(time) / Self.period
        if salt == self.salt(authKeyId: authKeyId, periodNumber: k) { return true }
        if salt == self.salt(authKeyId: authKeyId, periodNumber: k - 1) { return true }
        return salt == handshakeSalt
    }

    /// `count` salts from the current period on (at most 64, as Telegram's servers give), for `future_salts`.
    public func futureSalts(authKeyId: Int64, time: Double, count: Int) -> [ServerSaltStore.Salt] {
        let k = Int64(time) / Self.period
        return (0..<Int64(max(1, min(count, 64)))).map { i in
            ServerSaltStore.Salt(
                validSince: Int32(clamping: (k + i) * Self.period),
                validUntil: Int32(clamping: (k + i + 1) * Self.period),
                salt: salt(authKeyId: authKeyId, periodNumber: k + i))
        }
    }
}
