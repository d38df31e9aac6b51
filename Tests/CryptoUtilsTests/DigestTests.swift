import CryptoUtils
import TestVectors
import Testing

@Suite struct DigestTests {
    @Test func knownAnswers() {
        let abc = Array("abc".utf8)
        #expect(hex(Digest.sha1(abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(Digest.sha256(abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Digest.md5(abc)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hex(Digest.sha512(abc)).hasPrefix("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"))
        #expect(Digest.sha256(Array("ab".utf8), Array("c".utf8)) == Digest.sha256(abc))
        #expect(Digest.sha1([], abc, []) == Digest.sha1(abc))
    }

    /// RFC 6070-style check for PBKDF2-HMAC-SHA512 (value from RFC 7914 §11's PBKDF2-HMAC-SHA256 is for SHA-256;
    /// this one is the widely published SHA-512 vector for "password"/"salt", 1 iteration).
    @Test func pbkdf2SHA512() throws {
        let out = try PBKDF2.sha512(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        #expect(hex(out) == "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce")
        let two = try PBKDF2.sha512(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 2, length: 64)
        #expect(hex(two) == "e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53cf76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e")
    }

    @Test func secureRandomIsNotConstant() {
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a.count == 32 && a != b)
    }
}

/// HMAC-SHA256 against RFC 4231's test cases; X25519 public keys are 32 bytes and fresh each time.
@Suite struct HMACAndX25519Tests {
    @Test func rfc4231TestCases() {
        // Test case 1: a 20-byte key of 0x0b, "Hi There".
        #expect(
            hex(HMAC.sha256(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: "Jefe", "what do ya want for nothing?".
        #expect(
            hex(HMAC.sha256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a 131-byte key (longer than the block: hashed first).
        #expect(
            hex(
                HMAC.sha256(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func x25519PublicKeysAreFreshAndWellFormed() {
        let keys = (0..<8).map { _ in X25519.randomPublicKey() }
        #expect(keys.allSatisfy { $0.count == 32 })
        #expect(Set(keys.map { hex($0) }).count == keys.count)
    }
}
