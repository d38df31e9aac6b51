/// MTProto's two ways of RSA-encrypting `p_q_inner_data` (MTProto §Creating an Authorization Key, step 4.1).
public enum RSAPad {
    /// RSA_PAD (current): pad the data to 192 bytes, reverse it, append SHA-256(temp_key ‖ padded), AES-256-IGE it
    /// with `temp_key` and a zero IV, prefix `temp_key ⊕ SHA-256(aes_encrypted)`, retry with a new key while the
    /// result is not below n, then raw RSA. `random(n)` supplies random bytes (injectable for tests).
    public static func encrypt(
        _ data: [UInt8], key: RSAPublicKey, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(CryptoError) -> [UInt8] {
        guard data.count <= 144 else {
            throw .invalidLength(what: "RSA_PAD data", expected: "≤ 144", actual: data.count)
        }
        let padded = data + random(192 - data.count)
        let reversed = Array(padded.reversed())
        for _ in 0..<64 {
            let tempKey = random(32)
            let withHash = reversed + Digest.sha256(tempKey, padded)
            let aesEncrypted = try AESIGE.encrypt(withHash, key: tempKey, iv: [UInt8](repeating: 0, count: 32))
            let hash = Digest.sha256(aesEncrypted)
            let keyXor = zip(tempKey, hash).map { $0 ^ $1 }
            let block = keyXor + aesEncrypted
            if BigNum.compare(block, key.modulus) < 0 { return try key.encryptRaw(block) }
        }
        throw .outOfRange("RSA_PAD found no block below the modulus")
    }

    /// Inverts `encrypt` with the private key (what a server does); returns the 192 padded bytes and checks the hash.
    public static func decrypt(_ encrypted: [UInt8], key: RSAPrivateKey) throws(CryptoError) -> [UInt8] {
        try unpad(key.decryptRaw(encrypted))
    }

    /// The second half of `decrypt`: from the raw RSA plaintext (256 bytes) to the 192 padded bytes, checking the
    /// hash. A server that also accepts the legacy scheme decrypts once and tries both on the same block.
    public static func unpad(_ block: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard block.count == 256 else {
            throw .invalidLength(what: "RSA_PAD block", expected: "256", actual: block.count)
        }
        let keyXor = Array(block[0..<32])
        let aesEncrypted = Array(block[32..<256])
        let tempKey = zip(keyXor, Digest.sha256(aesEncrypted)).map { $0 ^ $1 }
        let withHash = try AESIGE.decrypt(aesEncrypted, key: tempKey, iv: [UInt8](repeating: 0, count: 32))
        let padded = Array(withHash[0..<192].reversed())
        guard ConstantTime.equals(Digest.sha256(tempKey, padded), withHash[192..<224]) else {
            throw .invalidKey("RSA_PAD hash mismatch")
        }
        return padded
    }

    /// The legacy scheme (`req_DH_params` before RSA_PAD): `SHA1(data) ‖ data ‖ random` to 255 bytes, raw RSA.
    public static func encryptLegacy(
        _ data: [UInt8], key: RSAPublicKey, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(CryptoError) -> [UInt8] {
        guard data.count <= 235 else {
            throw .invalidLength(what: "legacy data", expected: "≤ 235", actual: data.count)
        }
        let block = Digest.sha1(data) + data + random(255 - 20 - data.count)
        return try key.encryptRaw(block)
    }
}
