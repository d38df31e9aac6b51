import CryptoUtils
import TestVectors
import Testing

/// `BigNum.modMul`, `modAdd` and `modSub` against Swift's own arithmetic on small numbers, the edges of the range,
/// and one identity over the 2048-bit Telegram prime.
@Suite struct BigNumModularTests {
    /// Every pair of small values under a few moduli (including even ones and operands above the modulus) agrees
    /// with UInt64 arithmetic, and the result is padded to the modulus' length.
    @Test func smallValuesAgreeWithIntegerArithmetic() throws {
        var rng = SeededGenerator(seed: 7)
        for modulus: UInt64 in [2, 7, 255, 256, 65_521, 4_294_967_291] {
            let m = BigNum.bytes(modulus)
            for _ in 0..<200 {
                let a = UInt64(rng.int(0..<Int(modulus * 3))), b = UInt64(rng.int(0..<Int(modulus * 3)))
                let product = (a % modulus) * (b % modulus) % modulus
                let sum = (a % modulus + b % modulus) % modulus
                let difference = (a % modulus + modulus - b % modulus) % modulus
                let mul = try BigNum.modMul(BigNum.bytes(a), BigNum.bytes(b), modulus: m)
                let add = try BigNum.modAdd(BigNum.bytes(a), BigNum.bytes(b), modulus: m)
                let sub = try BigNum.modSub(BigNum.bytes(a), BigNum.bytes(b), modulus: m)
                #expect(mul.count == m.count && add.count == m.count && sub.count == m.count)
                #expect(value(mul) == product, "\(a)·\(b) mod \(modulus)")
                #expect(value(add) == sum, "\(a)+\(b) mod \(modulus)")
                #expect(value(sub) == difference, "\(a)−\(b) mod \(modulus)")
            }
        }
    }

    /// 0 − 1 is p − 1; (p − 1) + 1 is 0; (p − 1)·(p − 1) is 1; a zero modulus is an error, not a trap.
    @Test func edgesOfTheRange() throws {
        let p = DiffieHellman.telegramPrime
        let pMinusOne = try BigNum.subtract(p, [1])
        #expect(BigNum.compare(try BigNum.modSub([0], [1], modulus: p), pMinusOne) == 0)
        #expect(BigNum.compare(try BigNum.modAdd(pMinusOne, [1], modulus: p), [0]) == 0)
        #expect(BigNum.compare(try BigNum.modMul(pMinusOne, pMinusOne, modulus: p), [1]) == 0)
        #expect(BigNum.compare(try BigNum.modMul(p, [5], modulus: p), [0]) == 0)
        #expect(throws: CryptoError.outOfRange("modulus is zero")) { try BigNum.modMul([1], [1], modulus: [0]) }
        #expect(throws: CryptoError.outOfRange("modulus is zero")) { try BigNum.modAdd([1], [1], modulus: []) }
    }

    /// Over the 2048-bit prime: (a + b)·c = a·c + b·c and (a − b) + b = a for random a, b, c; and
    /// g^x · g^y = g^(x + y) ties the three to `modExp`.
    @Test func identitiesOverTheTelegramPrime() throws {
        let p = DiffieHellman.telegramPrime
        var rng = SeededGenerator(seed: 2048)
        for _ in 0..<20 {
            let a = rng.bytes(256), b = rng.bytes(256), c = rng.bytes(256)
            let left = try BigNum.modMul(try BigNum.modAdd(a, b, modulus: p), c, modulus: p)
            let right = try BigNum.modAdd(
                try BigNum.modMul(a, c, modulus: p), try BigNum.modMul(b, c, modulus: p), modulus: p)
            #expect(left == right)
            let aReduced = try BigNum.modAdd(a, [0], modulus: p)
            #expect(try BigNum.modAdd(try BigNum.modSub(a, b, modulus: p), b, modulus: p) == aReduced)
            let x = rng.bytes(32), y = rng.bytes(32)
            let gx = try BigNum.modExp(base: [3], exponent: x, modulus: p)
            let gy = try BigNum.modExp(base: [3], exponent: y, modulus: p)
            let sum = try BigNum.modAdd(x, y, modulus: BigNum.powerOfTwo(300))  // no wrap: x + y < 2^257
            #expect(try BigNum.modMul(gx, gy, modulus: p) == (try BigNum.modExp(base: [3], exponent: sum, modulus: p)))
        }
    }

    private func value(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
}
