import CryptoUtils
import TestVectors
import Testing

@Suite struct AESIGETests {
    @Test func openSSLTestVectors() throws {
        let vectors = (try Fixtures.json("aes_ige_vectors.json")["openssl_igetest"] as! [String: Any])["vectors"]
            as! [[String: String]]
        #expect(vectors.count == 2)
        for v in vectors {
            let key = hex(v["key"]!), iv = hex(v["iv"]!)
            if v["direction"] == "encrypt" {
                let out = try AESIGE.referenceCrypt(hex(v["plaintext"]!), key: key, iv: iv, encrypt: true)
                #expect(hex(out) == v["ciphertext"]!.lowercased())
            } else {
                // OpenSSL's vector: decrypting `ciphertext` gives `plaintext`.
                let out = try AESIGE.referenceCrypt(hex(v["ciphertext"]!), key: key, iv: iv, encrypt: false)
                #expect(hex(out) == v["plaintext"]!.lowercased())
            }
        }
    }

    /// NIST SP 800-38A F.2.5 (AES-256-CBC): one-block IGE with iv = c_{i-1} ‖ 0 is one CBC step, which checks the
    /// AES-256 block core of the fast path.
    @Test func nistAES256BlockCore() throws {
        let v = try Fixtures.json("aes_ige_vectors.json")["nist_aes256_cbc_sp800_38a"] as! [String: String]
        let key = hex(v["key"]!), plaintext = hex(v["plaintext"]!), ciphertext = hex(v["ciphertext"]!)
        var previous = hex(v["iv"]!)
        for block in 0..<4 {
            let m = Array(plaintext[block * 16..<(block + 1) * 16])
            let c = try AESIGE.encrypt(m, key: key, iv: previous + [UInt8](repeating: 0, count: 16))
            #expect(c == Array(ciphertext[block * 16..<(block + 1) * 16]))
            let back = try AESIGE.decrypt(c, key: key, iv: previous + [UInt8](repeating: 0, count: 16))
            #expect(back == m)
            previous = c
        }
    }

    @Test func fastPathMatchesOpenSSLOnRandomData() throws {
        var rng = SeededGenerator(seed: 42)
        for length in [16, 32, 48, 1024, 4096 + 16] {
            let key = rng.bytes(32), iv = rng.bytes(32), data = rng.bytes(length)
            let fast = try AESIGE.encrypt(data, key: key, iv: iv)
            #expect(fast == (try AESIGE.referenceCrypt(data, key: key, iv: iv, encrypt: true)))
            #expect(try AESIGE.decrypt(fast, key: key, iv: iv) == data)
            #expect(try AESIGE.referenceCrypt(fast, key: key, iv: iv, encrypt: false) == data)
        }
    }

    @Test func inPlaceGivesTheSameBytes() throws {
        var rng = SeededGenerator(seed: 7)
        for length in [16, 32, 48, 4096] {
            let key = rng.bytes(32), iv = rng.bytes(32), data = rng.bytes(length)
            var buffer = data
            try buffer.withUnsafeMutableBytes { try AESIGE.crypt(UnsafeRawBufferPointer($0), into: $0, key: key, iv: iv, encrypt: true) }
            let expected = try AESIGE.referenceCrypt(data, key: key, iv: iv, encrypt: true)
            #expect(buffer == expected)
            try buffer.withUnsafeMutableBytes { try AESIGE.crypt(UnsafeRawBufferPointer($0), into: $0, key: key, iv: iv, encrypt: false) }
            #expect(buffer == data)
        }
    }

    @Test func rejectsBadLengths() {
        #expect(throws: CryptoError.self) { try AESIGE.encrypt([UInt8](repeating: 0, count: 15), key: .init(repeating: 0, count: 32), iv: .init(repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try AESIGE.encrypt([UInt8](repeating: 0, count: 16), key: .init(repeating: 0, count: 16), iv: .init(repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try AESIGE.encrypt([UInt8](repeating: 0, count: 16), key: .init(repeating: 0, count: 32), iv: .init(repeating: 0, count: 16)) }
    }
}
