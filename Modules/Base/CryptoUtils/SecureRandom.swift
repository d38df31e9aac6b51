import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        precondition(ok == 1, "RAND_bytes failed: the system has no entropy source")
        return out
    }

    /// A random 64-bit integer.
    public static func uint64() -> UInt64 {
        bytes(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }
}
