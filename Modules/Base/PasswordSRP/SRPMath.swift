import CryptoUtils

/// The computations both sides share (core.telegram.org "Two-factor authentication"): numbers are hashed
/// "in big-endian form, padded to 2048 bits", `H` is SHA-256 and "all maths is modulo p".
enum SRPMath {
    /// 2048 bits: the length every number is padded to before it is hashed.
    static let numberLength = 256

    /// `value` left-padded with zeros to 256 bytes; the caller has checked it is no longer.
    static func padded(_ value: [UInt8]) -> [UInt8] {
        value.count >= numberLength ? value : [UInt8](repeating: 0, count: numberLength - value.count) + value
    }

    /// `g` as a padded big-endian number.
    static func paddedGenerator(_ g: Int32) -> [UInt8] { padded(BigNum.bytes(UInt64(UInt32(bitPattern: g)))) }

    /// `k := H(p | g)`.
    static func k(_ algorithm: SRPAlgorithm) -> [UInt8] {
        Digest.sha256(padded(algorithm.p), paddedGenerator(algorithm.g))
    }

    /// `u := H(g_a | g_b)`; nil when it is zero (both sides must then abort — SRP-6a's safeguard).
    static func u(A: [UInt8], B: [UInt8]) -> [UInt8]? {
        let u = Digest.sha256(padded(A), padded(B))
        return u.allSatisfy { $0 == 0 } ? nil : u
    }

    /// `M1 := H(H(p) xor H(g) | H(salt1) | H(salt2) | g_a | g_b | k_a)` with `k_a = H(S)`.
    static func m1(algorithm: SRPAlgorithm, A: [UInt8], B: [UInt8], S: [UInt8]) -> [UInt8] {
        let hp = Digest.sha256(padded(algorithm.p)), hg = Digest.sha256(paddedGenerator(algorithm.g))
        let k = Digest.sha256(padded(S))
        return Digest.sha256(
            zip(hp, hg).map { $0 ^ $1 }, Digest.sha256(algorithm.salt1), Digest.sha256(algorithm.salt2),
            padded(A), padded(B), k)
    }

    /// The range the page and the security guidelines require of `g_a`, `g_b` (and of `g_b − k·v`): no longer
    /// than 2048 bits, `1 < value < p − 1` and `2^(2048−64) ≤ value ≤ p − 2^(2048−64)`
    /// (`DiffieHellman.checkPublicValue`).
    static func checkPublicValue(_ value: [UInt8], _ what: String, prime: [UInt8]) throws(SRPError) {
        guard value.count <= numberLength else {
            throw .valueTooLong(what: what, bytes: value.count, limit: numberLength)
        }
        do { try DiffieHellman.checkPublicValue(value, prime: prime) } catch { throw .valueOutOfRange(what: what) }
    }

    /// `p − 1`, the order of the multiplicative group: exponents are reduced modulo it (t^(p−1) = 1 for any t
    /// coprime to p, by Fermat's little theorem), so `a + u·x` stays a 2048-bit secret exponent.
    static func groupOrder(_ algorithm: SRPAlgorithm) throws(CryptoError) -> [UInt8] {
        try BigNum.subtract(algorithm.p, [1])
    }

    /// Runs `body`, turning a `CryptoError` into `SRPError.crypto`.
    static func crypto<R>(_ body: () throws(CryptoError) -> R) throws(SRPError) -> R {
        do { return try body() } catch { throw .crypto(error) }
    }
}
