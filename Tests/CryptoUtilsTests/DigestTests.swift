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
