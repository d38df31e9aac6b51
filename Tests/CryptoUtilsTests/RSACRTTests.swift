import CryptoUtils
import TestVectors
import Testing

/// The CRT form of RSA decryption and the constant-time exponentiation it and the DH steps use.
@Suite struct RSACRTTests {
    static let key = try! RSAPrivateKey.generate(bits: 2048)

    @Test func generatedKeyCarriesConsistentCRTNumbers() throws {
        let crt = try #require(Self.key.crtParameters)
        #expect(Self.key.usesCRT && !Self.key.withoutCRT.usesCRT)
        #expect(try BigNum.bitCount(crt.p) == 1024 && BigNum.bitCount(crt.q) == 1024)
        #expect(crt.dP.count <= 128 && crt.dQ.count <= 128)
    }

    /// Property: for seeded random inputs below n, the CRT decryption equals plain `c^d mod n`.
    @Test func crtDecryptionEqualsPlainDecryption() throws {
        var rng = SeededGenerator(seed: 2026_11_22)
        let plain = Self.key.withoutCRT
        for round in 0..<24 {
            var c = rng.bytes(256)
            c[0] = round == 0 ? 0 : c[0] & 0x7f  // below n (n has its top bit set)
            if round == 1 { c = [UInt8](repeating: 0, count: 255) + [1] }  // 1^d = 1
            if round == 2 { c = Self.key.crtParameters!.p }  // a multiple of p: m1 = 0
            let viaCRT = try Self.key.decryptRaw(c)
            #expect(viaCRT == (try plain.decryptRaw(c)))
            #expect(viaCRT.count == 256)
            #expect(BigNum.compare(try Self.key.publicKey.encryptRaw(viaCRT), c) == 0)
        }
    }

    /// A wrong CRT number (a damaged key file, or a fault) never yields a wrong plaintext: the result is refused.
    @Test func wrongCRTNumberIsRefused() throws {
        let crt = try #require(Self.key.crtParameters)
        var dP = crt.dP
        dP[dP.count - 1] ^= 0x02
        let damaged = RSAPrivateKey(
            modulus: Self.key.publicKey.modulus, publicExponent: Self.key.publicKey.exponent,
            privateExponent: Self.key.privateExponentBytes,
            crt: .init(p: crt.p, q: crt.q, dP: dP, dQ: crt.dQ, qInv: crt.qInv))
        var rng = SeededGenerator(seed: 7)
        var c = rng.bytes(256)
        c[0] &= 0x7f
        #expect(throws: CryptoError.self) { try damaged.decryptRaw(c) }
    }

    /// Known answers of the constant-time path and agreement with the variable-time one.
    @Test func constantTimeModExpAgreesWithVariableTime() throws {
        #expect(try BigNum.modExp(base: [3], exponent: [5], modulus: [7]) == [5])  // 243 mod 7
        #expect(try BigNum.modExp(base: [2], exponent: [10], modulus: [0x03, 0xe9]) == [0x00, 0x17])  // 1024 mod 1001
        var rng = SeededGenerator(seed: 11)
        let modulus = Self.key.publicKey.modulus
        for _ in 0..<4 {
            let base = rng.bytes(200)
            let exponent = rng.bytes(256)
            #expect(
                try BigNum.modExp(base: base, exponent: exponent, modulus: modulus)
                    == BigNum.modExp(base: base, exponent: exponent, modulus: modulus, exponentIsSecret: false))
        }
        // A secret exponent needs an odd modulus (the constant-time Montgomery path); a public one does not.
        #expect(throws: CryptoError.self) { try BigNum.modExp(base: [3], exponent: [5], modulus: [8]) }
        #expect(try BigNum.modExp(base: [3], exponent: [5], modulus: [8], exponentIsSecret: false) == [3])
    }
}
