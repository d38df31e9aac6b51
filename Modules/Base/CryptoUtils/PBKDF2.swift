import COpenSSL

/// PBKDF2-HMAC-SHA512 (RFC 8018), as Telegram's 2FA password hashing uses it (SRP `PH2`, 100 000 iterations).
public enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt`.
    public static func sha512(
        password: [UInt8], salt: [UInt8], iterations: Int, length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard iterations > 0, iterations <= Int(Int32.max) else { throw .outOfRange("iterations \(iterations)") }
        guard length > 0, length <= 1 << 20 else { throw .outOfRange("length \(length)") }
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBufferPointer { p in
            salt.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    p.withMemoryRebound(to: CChar.self) { pc in
                        PKCS5_PBKDF2_HMAC(
                            pc.baseAddress, Int32(p.count), s.baseAddress, Int32(s.count), Int32(iterations),
                            EVP_sha512(), Int32(length), o.baseAddress)
                    }
                }
            }
        }
        guard ok == 1 else { throw .openSSL("PKCS5_PBKDF2_HMAC") }
        return out
    }
}
