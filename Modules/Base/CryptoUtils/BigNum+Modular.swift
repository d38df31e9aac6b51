import COpenSSL
import COpenSSLShims

/// Modular multiplication, addition and subtraction: what SRP's `k·v + g^b`, `g_b − k·v` and `a + u·x` need
/// (core.telegram.org "Two-factor authentication": "all maths is modulo p").
///
/// Inputs are big-endian byte strings of any length (they are reduced first); results lie in `[0, modulus)` and are
/// left-padded to the modulus' byte length. Every operand is flagged `BN_FLG_CONSTTIME`, so the reductions take
/// OpenSSL's constant-time division; the multiplication's time depends on the operands' lengths in words, not
/// their bits.
extension BigNum {
    /// `a · b mod modulus`.
    public static func modMul(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) throws(CryptoError) -> [UInt8] {
        try modular(a, b, modulus) { r, x, y, m, ctx in BN_mod_mul(r, x, y, m, ctx) == 1 }
    }

    /// `a + b mod modulus`.
    public static func modAdd(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) throws(CryptoError) -> [UInt8] {
        try modular(a, b, modulus) { r, x, y, m, ctx in BN_mod_add(r, x, y, m, ctx) == 1 }
    }

    /// `a − b mod modulus`, never negative (`p − 1` for `0 − 1`).
    public static func modSub(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) throws(CryptoError) -> [UInt8] {
        try modular(a, b, modulus) { r, x, y, m, ctx in BN_mod_sub(r, x, y, m, ctx) == 1 }
    }

    /// Reduces both operands into `[0, modulus)` (OpenSSL's modular add and subtract expect reduced inputs, and
    /// reducing first makes all three behave alike), then runs `operation`.
    private static func modular(
        _ a: [UInt8], _ b: [UInt8], _ modulus: [UInt8],
        _ operation: (OpaquePointer, OpaquePointer, OpaquePointer, OpaquePointer, OpaquePointer) -> Bool
    ) throws(CryptoError) -> [UInt8] {
        try withContext { ctx throws(CryptoError) in
            let x = try number(a)
            defer { BN_clear_free(x) }
            let y = try number(b)
            defer { BN_clear_free(y) }
            let m = try number(modulus)
            defer { BN_clear_free(m) }
            let r = try number([])
            defer { BN_clear_free(r) }
            guard BN_is_zero(m) == 0 else { throw .outOfRange("modulus is zero") }
            for value in [x, y, m, r] { BN_set_flags(value, BN_FLG_CONSTTIME) }
            guard BN_nnmod(x, x, m, ctx) == 1, BN_nnmod(y, y, m, ctx) == 1 else { throw .openSSL("BN_nnmod") }
            guard operation(r, x, y, m, ctx) else { throw .openSSL("modular arithmetic") }
            return bytes(of: r, length: Int(copenssl_bn_num_bytes(m)))
        }
    }
}
