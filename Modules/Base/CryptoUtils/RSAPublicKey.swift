import COpenSSL

/// An RSA public key (n, e) as MTProto uses it: raw "textbook" RSA on 256-byte blocks, no padding of OpenSSL's.
public struct RSAPublicKey: Sendable, Equatable {
    /// The modulus, big-endian.
    public let modulus: [UInt8]
    /// The public exponent, big-endian.
    public let exponent: [UInt8]

    /// A key from its numbers (big-endian, leading zeros allowed).
    public init(modulus: [UInt8], exponent: [UInt8]) {
        self.modulus = Array(modulus.drop { $0 == 0 })
        self.exponent = Array(exponent.drop { $0 == 0 })
    }

    /// Reads a PEM key: `BEGIN RSA PUBLIC KEY` (PKCS#1, as Telegram publishes them) or `BEGIN PUBLIC KEY` (SPKI).
    public init(pem: String) throws(CryptoError) {
        guard let bio = pem.withCString({ BIO_new_mem_buf($0, Int32(strlen($0))) }) else {
            throw .openSSL("BIO_new_mem_buf")
        }
        defer { BIO_free(bio) }
        var rsa = PEM_read_bio_RSAPublicKey(bio, nil, nil, nil)
        if rsa == nil {
            _ = BIO_ctrl(bio, BIO_CTRL_RESET, 0, nil)
            ERR_clear_error()
            rsa = PEM_read_bio_RSA_PUBKEY(bio, nil, nil, nil)
        }
        guard let rsa else { throw .invalidKey("not a PEM RSA public key") }
        defer { RSA_free(rsa) }
        var n: OpaquePointer?
        var e: OpaquePointer?
        RSA_get0_key(rsa, &n, &e, nil)
        guard let n, let e else { throw .invalidKey("key without n or e") }
        self.init(modulus: RSAPublicKey.bytes(of: n), exponent: RSAPublicKey.bytes(of: e))
    }

    static func bytes(of bn: OpaquePointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int((BN_num_bits(bn) + 7) / 8))
        _ = out.withUnsafeMutableBufferPointer { BN_bn2bin(bn, $0.baseAddress) }
        return out
    }

    /// The modulus length in bytes (256 for Telegram's 2048-bit keys).
    public var size: Int { modulus.count }

    /// Raw RSA: `data^e mod n` as big-endian bytes of the modulus' length. `data` must be below n.
    public func encryptRaw(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard BigNum.compare(data, modulus) < 0 else { throw .outOfRange("RSA input is not below the modulus") }
        return try BigNum.modExp(base: data, exponent: exponent, modulus: modulus, exponentIsSecret: false)
    }

    /// The key fingerprint: the low 64 bits of SHA-1 over the TL serialization of `rsa_public_key n:bytes e:bytes`
    /// (the last 8 bytes of the digest, little-endian; MTProto §Creating an Authorization Key, step 2).
    public var fingerprint: UInt64 {
        let digest = Digest.sha1(Self.tlBytes(modulus) + Self.tlBytes(exponent))
        return digest[12..<20].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// TL `bytes` encoding (1- or 4-byte length, zero padding to 4), here because Base cannot use TLRuntime.
    static func tlBytes(_ value: [UInt8]) -> [UInt8] {
        var out: [UInt8]
        if value.count < 254 {
            out = [UInt8(value.count)]
        } else {
            out = [
                254, UInt8(truncatingIfNeeded: value.count), UInt8(truncatingIfNeeded: value.count >> 8),
                UInt8(truncatingIfNeeded: value.count >> 16),
            ]
        }
        out += value
        while out.count % 4 != 0 { out.append(0) }
        return out
    }
}
