/// The Diffie–Hellman checks and steps of MTProto's auth-key exchange (MTProto §Creating an Authorization Key,
/// steps 5–6, and the Security Guidelines §Mandatory checks: "dh_prime must be a safe 2048-bit prime", the
/// conditions on g, and the range of g_a / g_b).
public enum DiffieHellman {
    /// Why a server's DH parameters were rejected.
    public enum Failure: Error, Equatable, Sendable {
        case primeNotTwoThousandFortyEightBits(bits: Int)
        case primeNotPrime
        case primeNotSafe
        case generatorOutOfRange(Int32)
        case generatorCondition(g: Int32, residue: UInt32)
        case valueOutOfRange
        case crypto(CryptoError)
    }

    /// Checks `dh_prime` (a safe 2048-bit prime: p and (p−1)/2 both prime) and `g` (2…7 with the residue condition
    /// that makes g generate the subgroup of order (p−1)/2). Costs two probabilistic primality tests.
    public static func checkParameters(prime: [UInt8], g: Int32) throws(Failure) {
        do {
            let bits = try BigNum.bitCount(prime)
            guard bits == 2048 else { throw Failure.primeNotTwoThousandFortyEightBits(bits: bits) }
            try checkGenerator(prime: prime, g: g)
            guard try BigNum.isProbablePrime(prime) else { throw Failure.primeNotPrime }
            guard try BigNum.isProbablePrime(try BigNum.halfOfPredecessor(prime)) else { throw Failure.primeNotSafe }
        } catch let failure as Failure {
            throw failure
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .valueOutOfRange
        }
    }

    /// The generator conditions alone (cheap): g = 2 → p mod 8 = 7; 3 → p mod 3 = 2; 4 → none; 5 → p mod 5 ∈ {1, 4};
    /// 6 → p mod 24 ∈ {19, 23}; 7 → p mod 7 ∈ {3, 5, 6}.
    public static func checkGenerator(prime: [UInt8], g: Int32) throws(Failure) {
        let modulus: UInt32
        let allowed: Set<UInt32>
        switch g {
        case 2: (modulus, allowed) = (8, [7])
        case 3: (modulus, allowed) = (3, [2])
        case 4: return
        case 5: (modulus, allowed) = (5, [1, 4])
        case 6: (modulus, allowed) = (24, [19, 23])
        case 7: (modulus, allowed) = (7, [3, 5, 6])
        default: throw .generatorOutOfRange(g)
        }
        let residue: UInt32
        do { residue = try BigNum.mod(prime, modulus) } catch { throw .crypto(error) }
        guard allowed.contains(residue) else { throw .generatorCondition(g: g, residue: residue) }
    }

    /// Checks a public value g_a or g_b: `1 < v < p − 1` and `2^(2048−64) ≤ v ≤ p − 2^(2048−64)`.
    public static func checkPublicValue(_ value: [UInt8], prime: [UInt8]) throws(Failure) {
        do {
            let one: [UInt8] = [1]
            let pMinusOne = try BigNum.subtract(prime, one)
            guard BigNum.compare(value, one) > 0, BigNum.compare(value, pMinusOne) < 0 else {
                throw Failure.valueOutOfRange
            }
            let bound = BigNum.powerOfTwo(2048 - 64)
            let upper = try BigNum.subtract(prime, bound)
            guard BigNum.compare(value, bound) >= 0, BigNum.compare(value, upper) <= 0 else {
                throw Failure.valueOutOfRange
            }
        } catch let failure as Failure {
            throw failure
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .valueOutOfRange
        }
    }

    /// `g^b mod p` for a secret `b` (256 random bytes), padded to 256 bytes.
    public static func publicValue(g: Int32, secret: [UInt8], prime: [UInt8]) throws(CryptoError) -> [UInt8] {
        try BigNum.modExp(base: BigNum.bytes(UInt64(g)), exponent: secret, modulus: prime)
    }

    /// The shared key `g_a^b mod p`, padded to 256 bytes (the auth key).
    public static func sharedKey(peerValue: [UInt8], secret: [UInt8], prime: [UInt8]) throws(CryptoError) -> [UInt8] {
        try BigNum.modExp(base: peerValue, exponent: secret, modulus: prime)
    }
}
