import COpenSSL
import COpenSSLShims

/// Big-endian unsigned big numbers over OpenSSL's BIGNUM: what MTProto's RSA and Diffie–Hellman steps need.
///
/// Values cross the API as big-endian byte strings (as TL `bytes` carries `dh_prime`, `g_a`, `pq`).
public enum BigNum {
    /// `base ^ exponent mod modulus`, left-padded with zeros to the modulus' byte length.
    public static func modExp(base: [UInt8], exponent: [UInt8], modulus: [UInt8]) throws(CryptoError) -> [UInt8] {
        try withContext { ctx throws(CryptoError) in
            let b = try number(base)
            defer { BN_clear_free(b) }
            let e = try number(exponent)
            defer { BN_clear_free(e) }
            let m = try number(modulus)
            defer { BN_clear_free(m) }
            let r = try number([])
            defer { BN_clear_free(r) }
            guard BN_is_zero(m) == 0 else { throw .outOfRange("modulus is zero") }
            guard BN_mod_exp(r, b, e, m, ctx) == 1 else { throw .openSSL("BN_mod_exp") }
            return bytes(of: r, length: Int(copenssl_bn_num_bytes(m)))
        }
    }

    /// Compares two big-endian numbers: -1, 0 or 1.
    public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = a.drop { $0 == 0 }, y = b.drop { $0 == 0 }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }

    /// `a - b` for `a ≥ b`, big-endian, without leading zeros.
    public static func subtract(_ a: [UInt8], _ b: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try number(a)
        defer { BN_clear_free(x) }
        let y = try number(b)
        defer { BN_clear_free(y) }
        let r = try number([])
        defer { BN_clear_free(r) }
        guard BN_sub(r, x, y) == 1, BN_is_negative(r) == 0 else { throw .outOfRange("a < b") }
        return bytes(of: r, length: nil)
    }

    /// `value mod modulus` for a small modulus (DH generator conditions).
    public static func mod(_ value: [UInt8], _ modulus: UInt32) throws(CryptoError) -> UInt32 {
        let x = try number(value)
        defer { BN_clear_free(x) }
        let r = BN_mod_word(x, UInt(modulus))
        guard r != UInt.max else { throw .openSSL("BN_mod_word") }
        return UInt32(r)
    }

    /// Number of significant bits.
    public static func bitCount(_ value: [UInt8]) throws(CryptoError) -> Int {
        let x = try number(value)
        defer { BN_clear_free(x) }
        return Int(BN_num_bits(x))
    }

    /// Whether `value` is (probably) prime: OpenSSL's `BN_check_prime` (error below 2⁻¹²⁸).
    public static func isProbablePrime(_ value: [UInt8]) throws(CryptoError) -> Bool {
        try withContext { ctx throws(CryptoError) in
            let x = try number(value)
            defer { BN_clear_free(x) }
            let result = BN_check_prime(x, ctx, nil)
            guard result >= 0 else { throw .openSSL("BN_check_prime") }
            return result == 1
        }
    }

    /// `(value - 1) / 2`.
    public static func halfOfPredecessor(_ value: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try number(value)
        defer { BN_clear_free(x) }
        guard BN_sub_word(x, 1) == 1, BN_rshift1(x, x) == 1 else { throw .openSSL("BN_sub_word") }
        return bytes(of: x, length: nil)
    }

    /// `2^bits` as big-endian bytes.
    public static func powerOfTwo(_ bits: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bits / 8 + 1)
        out[0] = 1 << UInt8(bits % 8)
        return out
    }

    /// A big-endian number from a `UInt64`, without leading zeros.
    public static func bytes(_ value: UInt64) -> [UInt8] {
        Array((0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - $0))) }.drop { $0 == 0 })
    }

    static func withContext<R>(_ body: (OpaquePointer) throws(CryptoError) -> R) throws(CryptoError) -> R {
        guard let ctx = BN_CTX_new() else { throw .openSSL("BN_CTX_new") }
        defer { BN_CTX_free(ctx) }
        return try body(ctx)
    }

    /// A new BIGNUM holding `bytes` (big-endian); the caller frees it with `BN_clear_free` (a `defer` keeps the
    /// lifetime explicit, which a class wrapper would not: Swift may release an object after its last use).
    static func number(_ bytes: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard let bn = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else {
            throw .openSSL("BN_bin2bn")
        }
        return bn
    }

    /// Big-endian bytes of `bn`, left-padded to `length` when given.
    static func bytes(of bn: OpaquePointer, length: Int?) -> [UInt8] {
        let count = Int(copenssl_bn_num_bytes(bn))
        let size = max(length ?? count, count)
        var out = [UInt8](repeating: 0, count: size)
        out.withUnsafeMutableBufferPointer { _ = BN_bn2bin(bn, $0.baseAddress! + (size - count)) }
        return out
    }
}
