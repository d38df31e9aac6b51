import COpenSSL
import COpenSSLShims

/// Big-endian unsigned big numbers over OpenSSL's BIGNUM: what MTProto's RSA and Diffie–Hellman steps need.
///
/// Values cross the API as big-endian byte strings (as TL `bytes` carries `dh_prime`, `g_a`, `pq`).
public enum BigNum {
    /// `base ^ exponent mod modulus`, left-padded with zeros to the modulus' byte length.
    public static func modExp(base: [UInt8], exponent: [UInt8], modulus: [UInt8]) throws(CryptoError) -> [UInt8] {
        try withContext { ctx throws(CryptoError) in
            let b = try Handle(base), e = try Handle(exponent), m = try Handle(modulus), r = try Handle([])
            guard BN_is_zero(m.bn) == 0 else { throw .outOfRange("modulus is zero") }
            guard BN_mod_exp(r.bn, b.bn, e.bn, m.bn, ctx) == 1 else { throw .openSSL("BN_mod_exp") }
            return r.bytes(length: Int(copenssl_bn_num_bytes(m.bn)))
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
        let x = try Handle(a), y = try Handle(b), r = try Handle([])
        guard BN_sub(r.bn, x.bn, y.bn) == 1, !BN_is_negative(r.bn).isTrue else { throw .outOfRange("a < b") }
        return r.bytes(length: nil)
    }

    /// `value mod modulus` for a small modulus (DH generator conditions).
    public static func mod(_ value: [UInt8], _ modulus: UInt32) throws(CryptoError) -> UInt32 {
        let x = try Handle(value)
        let r = BN_mod_word(x.bn, UInt(modulus))
        guard r != UInt.max else { throw .openSSL("BN_mod_word") }
        return UInt32(r)
    }

    /// Number of significant bits.
    public static func bitCount(_ value: [UInt8]) throws(CryptoError) -> Int {
        Int(BN_num_bits(try Handle(value).bn))
    }

    /// Whether `value` is (probably) prime: OpenSSL's `BN_check_prime` (error below 2⁻¹²⁸).
    public static func isProbablePrime(_ value: [UInt8]) throws(CryptoError) -> Bool {
        try withContext { ctx throws(CryptoError) in
            let x = try Handle(value)
            let result = BN_check_prime(x.bn, ctx, nil)
            guard result >= 0 else { throw .openSSL("BN_check_prime") }
            return result == 1
        }
    }

    /// `(value - 1) / 2`.
    public static func halfOfPredecessor(_ value: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try Handle(value)
        guard BN_sub_word(x.bn, 1) == 1, BN_rshift1(x.bn, x.bn) == 1 else { throw .openSSL("BN_sub_word") }
        return x.bytes(length: nil)
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

    /// An owned BIGNUM, cleared and freed when released.
    final class Handle {
        let bn: OpaquePointer

        init(_ bytes: [UInt8]) throws(CryptoError) {
            guard let bn = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else {
                throw .openSSL("BN_bin2bn")
            }
            self.bn = bn
        }

        deinit { BN_clear_free(bn) }

        /// Big-endian bytes, left-padded to `length` when given.
        func bytes(length: Int?) -> [UInt8] {
            let count = Int(copenssl_bn_num_bytes(bn))
            let size = max(length ?? count, count)
            var out = [UInt8](repeating: 0, count: size)
            out.withUnsafeMutableBufferPointer { _ = BN_bn2bin(bn, $0.baseAddress! + (size - count)) }
            return out
        }
    }
}

extension Int32 {
    var isTrue: Bool { self != 0 }
}
