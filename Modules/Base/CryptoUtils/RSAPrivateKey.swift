import COpenSSL

/// An RSA key pair, for the local MTProto server and for tests: raw decryption and PEM export of the public part.
public struct RSAPrivateKey: Sendable {
    /// The public half.
    public let publicKey: RSAPublicKey
    /// The private exponent, big-endian.
    let privateExponent: [UInt8]
    /// The CRT form of the private key (PKCS #1 §3.2), when known: decryption then costs two half-size
    /// exponentiations instead of one full-size one.
    let crt: CRTParameters?

    /// The CRT numbers of a private key (PKCS #1 §3.2, big-endian): the primes p and q, dP = d mod (p−1),
    /// dQ = d mod (q−1) and qInv = q⁻¹ mod p. Secret: never log them.
    public struct CRTParameters: Sendable, Equatable {
        public let p: [UInt8]
        public let q: [UInt8]
        public let dP: [UInt8]
        public let dQ: [UInt8]
        public let qInv: [UInt8]

        /// The five numbers, big-endian.
        public init(p: [UInt8], q: [UInt8], dP: [UInt8], dQ: [UInt8], qInv: [UInt8]) {
            (self.p, self.q, self.dP, self.dQ, self.qInv) = (p, q, dP, dQ, qInv)
        }
    }

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
        var p: OpaquePointer?
        var q: OpaquePointer?
        RSA_get0_factors(rsa, &p, &q)
        var dP: OpaquePointer?
        var dQ: OpaquePointer?
        var qInv: OpaquePointer?
        RSA_get0_crt_params(rsa, &dP, &dQ, &qInv)
        guard let p, let q, let dP, let dQ, let qInv else { throw .openSSL("RSA_get0_crt_params") }
        return RSAPrivateKey(
            publicKey: RSAPublicKey(modulus: RSAPublicKey.bytes(of: n), exponent: RSAPublicKey.bytes(of: pe)),
            privateExponent: RSAPublicKey.bytes(of: d),
            crt: CRTParameters(
                p: RSAPublicKey.bytes(of: p), q: RSAPublicKey.bytes(of: q), dP: RSAPublicKey.bytes(of: dP),
                dQ: RSAPublicKey.bytes(of: dQ), qInv: RSAPublicKey.bytes(of: qInv)))
    }

    /// A key from its numbers (big-endian); with `crt`, decryption uses the Chinese remainder theorem.
    public init(modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8], crt: CRTParameters? = nil) {
        self.init(
            publicKey: RSAPublicKey(modulus: modulus, exponent: publicExponent), privateExponent: privateExponent,
            crt: crt)
    }

    init(publicKey: RSAPublicKey, privateExponent: [UInt8], crt: CRTParameters? = nil) {
        self.publicKey = publicKey
        self.privateExponent = Array(privateExponent.drop { $0 == 0 })
        self.crt = crt
    }

    /// The same key without its CRT numbers (plain `c^d mod n`): the reference the CRT path is checked against.
    public var withoutCRT: RSAPrivateKey { RSAPrivateKey(publicKey: publicKey, privateExponent: privateExponent) }

    /// Whether decryption uses the CRT form.
    public var usesCRT: Bool { crt != nil }

    /// Raw RSA decryption: `data^d mod n`, as big-endian bytes of the modulus' length.
    ///
    /// With CRT numbers the result is checked by re-encrypting it (`m^e mod n == c`, cheap with e = 65537), so that
    /// a wrong CRT number or a computation fault never yields a wrong plaintext (the fault attack on RSA-CRT).
    public func decryptRaw(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard BigNum.compare(data, publicKey.modulus) < 0 else { throw .outOfRange("RSA input is not below n") }
        guard let crt else {
            return try BigNum.modExp(base: data, exponent: privateExponent, modulus: publicKey.modulus)
        }
        let length = publicKey.modulus.drop { $0 == 0 }.count
        let result = try BigNum.modExpCRT(
            base: data, p: crt.p, q: crt.q, dP: crt.dP, dQ: crt.dQ, qInv: crt.qInv, length: length)
        guard BigNum.compare(try publicKey.encryptRaw(result), data) == 0 else {
            throw .invalidKey("RSA CRT result does not re-encrypt to the input")
        }
        return result
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
