import COpenSSL
import COpenSSLShims

/// Big-endian unsigned big numbers over OpenSSL's BIGNUM: what MTProto's RSA and Diffie–Hellman steps need.
///
/// Values cross the API as big-endian byte strings (as TL `bytes` carries `dh_prime`, `g_a`, `pq`).
public enum BigNum {
    /// `base ^ exponent mod modulus`, left-padded with zeros to the modulus' byte length.
    ///
    /// A secret exponent (the default: DH secrets, RSA private exponents) goes through OpenSSL's constant-time
    /// Montgomery ladder (`BN_mod_exp_mont_consttime`, the exponent flagged `BN_FLG_CONSTTIME`), whose timing and
    /// memory access do not depend on the exponent's bits; it needs an odd modulus, which every MTProto modulus is
    /// (RSA n, the DH prime). `exponentIsSecret: false` (an RSA public exponent) takes the faster variable-time path.
    public static func modExp(
        base: [UInt8], exponent: [UInt8], modulus: [UInt8], exponentIsSecret: Bool = true
    ) throws(CryptoError) -> [UInt8] {
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
            try exponentiate(r, b, e, m, secret: exponentIsSecret, ctx: ctx)
            return bytes(of: r, length: Int(copenssl_bn_num_bytes(m)))
        }
    }

    /// RSA private-key operation by the Chinese remainder theorem (PKCS #1 §5.1.2, RSADP 2.b): with
    /// m1 = c^dP mod p, m2 = c^dQ mod q, h = qInv·(m1 − m2) mod p, the result is m2 + q·h, padded to `length`
    /// bytes. Both exponentiations are constant-time. Two half-size exponentiations with half-size exponents:
    /// about 4× cheaper than `c^d mod n`, about 10× with AVX-512 IFMA (0.22 ms against 2.4 ms on the bench machine).
    public static func modExpCRT(
        base: [UInt8], p: [UInt8], q: [UInt8], dP: [UInt8], dQ: [UInt8], qInv: [UInt8], length: Int
    ) throws(CryptoError) -> [UInt8] {
        try withContext { ctx throws(CryptoError) in
            let c = try number(base)
            defer { BN_clear_free(c) }
            let bp = try number(p)
            defer { BN_clear_free(bp) }
            let bq = try number(q)
            defer { BN_clear_free(bq) }
            let edp = try number(dP)
            defer { BN_clear_free(edp) }
            let edq = try number(dQ)
            defer { BN_clear_free(edq) }
            let qi = try number(qInv)
            defer { BN_clear_free(qi) }
            let m1 = try number([])
            defer { BN_clear_free(m1) }
            let m2 = try number([])
            defer { BN_clear_free(m2) }
            let h = try number([])
            defer { BN_clear_free(h) }
            guard BN_is_odd(bp) == 1, BN_is_odd(bq) == 1 else { throw .invalidKey("RSA primes must be odd") }
            for secret in [bp, bq, edp, edq, qi] { BN_set_flags(secret, BN_FLG_CONSTTIME) }
            // c mod p and c mod q (constant-time division: the primes are flagged), then both exponentiations in
            // one call: OpenSSL runs them side by side with AVX-512 IFMA for 1024-bit primes (as its own RSA
            // private operation does), else one after the other, constant-time either way.
            let cp = try number([])
            defer { BN_clear_free(cp) }
            let cq = try number([])
            defer { BN_clear_free(cq) }
            guard BN_nnmod(cp, c, bp, ctx) == 1, BN_nnmod(cq, c, bq, ctx) == 1 else { throw .openSSL("BN_nnmod") }
            guard BN_mod_exp_mont_consttime_x2(m1, cp, edp, bp, nil, m2, cq, edq, bq, nil, ctx) == 1 else {
                throw .openSSL("BN_mod_exp_mont_consttime_x2")
            }
            BN_set_flags(h, BN_FLG_CONSTTIME)
            guard BN_mod_sub(h, m1, m2, bp, ctx) == 1, BN_mod_mul(h, h, qi, bp, ctx) == 1,
                BN_mul(h, h, bq, ctx) == 1, BN_add(h, h, m2) == 1
            else { throw .openSSL("RSA CRT recombination") }
            guard Int(copenssl_bn_num_bytes(h)) <= length else {
                throw .invalidKey("RSA CRT result exceeds the modulus")
            }
            return bytes(of: h, length: length)
        }
    }

    /// `r = b^e mod m`: constant-time for a secret exponent and an odd modulus, otherwise `BN_mod_exp`.
    private static func exponentiate(
        _ r: OpaquePointer, _ b: OpaquePointer, _ e: OpaquePointer, _ m: OpaquePointer, secret: Bool,
        ctx: OpaquePointer
    ) throws(CryptoError) {
        if secret {
            guard BN_is_odd(m) == 1 else { throw .outOfRange("a secret exponent needs an odd modulus") }
            BN_set_flags(e, BN_FLG_CONSTTIME)
            guard BN_mod_exp_mont_consttime(r, b, e, m, ctx, nil) == 1 else {
                throw .openSSL("BN_mod_exp_mont_consttime")
            }
        } else {
            guard BN_mod_exp(r, b, e, m, ctx) == 1 else { throw .openSSL("BN_mod_exp") }
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
