import CryptoUtils
import TestVectors
import Testing

@Suite struct AESCTRTests {
    @Test func rfc3686Vectors() throws {
        let vectors = (try Fixtures.json("aes_ige_vectors.json")["aes256_ctr_tgcrypto"] as! [String: Any])["vectors"]
            as! [[String: String]]
        #expect(vectors.count == 3)
        for v in vectors {
            let ctr = try AESCTR(key: hex(v["key"]!), iv: hex(v["iv"]!))
            #expect(hex(ctr.process(hex(v["plaintext"]!))) == v["ciphertext"]!.lowercased())
        }
    }

    /// The stream continues across calls: any split of the input gives the same output as one call.
    @Test func streamContinuesAcrossCalls() throws {
        var rng = SeededGenerator(seed: 7)
        let key = rng.bytes(32), iv = rng.bytes(16), data = rng.bytes(1000)
        let whole = try AESCTR(key: key, iv: iv).process(data)
        let pieces = try AESCTR(key: key, iv: iv)
        var joined: [UInt8] = []
        var offset = 0
        for size in [1, 15, 16, 17, 100, 3, 848] {
            joined += pieces.process(Array(data[offset..<offset + size]))
            offset += size
        }
        #expect(joined == whole)
        #expect(try AESCTR(key: key, iv: iv).process(whole) == data)
    }
}
