import COpenSSL

/// An RSA key pair, for the local MTProto server and for tests: raw decryption and PEM export of the public part.
public struct RSAPrivateKey: Sendable {
    /// The public half.
    public let publicKey: RSAPublicKey
    /// The private exponent, big-endian.
    let privateExponent: [UInt8]

    /// A fresh key pair of `bits` bits with e = 65537.
    public static func generate(bits: Int = 2048) throws(CryptoError) -> RSAPrivateKey {
        guard let rsa = RSA_new() else { throw .openSSL("RSA_new") }
        defer { RSA_free(rsa) }
        guard let e = BN_new() else { throw .openSSL("BN_new") }
        defer { BN_free(e) }
        guard BN_set_word(e, 65537) == 1, RSA_generate_key_ex(rsa, Int32(bits), e, nil) == 1 else {
            throw .openSSL("RSA_generate_key_ex")
        }
        var n: OpaquePointer?
        var pe: OpaquePointer?
        var d: OpaquePointer?
        RSA_get0_key(rsa, &n, &pe, &d)
        guard let n, let pe, let d else { throw .openSSL("RSA_get0_key") }
        return RSAPrivateKey(
            publicKey: RSAPublicKey(modulus: RSAPublicKey.bytes(of: n), exponent: RSAPublicKey.bytes(of: pe)),
            privateExponent: RSAPublicKey.bytes(of: d))
    }

    /// A key from its numbers (big-endian).
    public init(modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8]) {
        self.init(
            publicKey: RSAPublicKey(modulus: modulus, exponent: publicExponent), privateExponent: privateExponent)
    }

    init(publicKey: RSAPublicKey, privateExponent: [UInt8]) {
        self.publicKey = publicKey
        self.privateExponent = Array(privateExponent.drop { $0 == 0 })
    }

    /// Raw RSA decryption: `data^d mod n`, as big-endian bytes of the modulus' length.
    public func decryptRaw(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard BigNum.compare(data, publicKey.modulus) < 0 else { throw .outOfRange("RSA input is not below n") }
        return try BigNum.modExp(base: data, exponent: privateExponent, modulus: publicKey.modulus)
    }

    /// The public key as PKCS#1 PEM (`BEGIN RSA PUBLIC KEY`), the form Telegram clients embed.
    public func publicKeyPEM() throws(CryptoError) -> String {
        guard let rsa = RSA_new() else { throw .openSSL("RSA_new") }
        defer { RSA_free(rsa) }
        let n = publicKey.modulus.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let e = publicKey.exponent.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard RSA_set0_key(rsa, n, e, nil) == 1 else { throw .openSSL("RSA_set0_key") }
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL("BIO_new") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_RSAPublicKey(bio, rsa) == 1 else { throw .openSSL("PEM_write_bio_RSAPublicKey") }
        var pointer: UnsafeMutableRawPointer?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard let pointer, length > 0 else { throw .openSSL("BIO_get_mem_data") }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
