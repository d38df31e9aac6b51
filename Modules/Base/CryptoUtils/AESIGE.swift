import COpenSSLShims

/// AES-256 in Infinite Garble Extension mode, as MTProto encrypts messages (MTProto 2.0 §Encryption).
///
/// The 32-byte IV is `c₋₁ ‖ m₋₁`; `cᵢ = E(mᵢ ⊕ cᵢ₋₁) ⊕ mᵢ₋₁`. Uses the CPU's AES instructions when present,
/// else OpenSSL's `AES_ige_encrypt`; both give the same bytes.
public enum AESIGE {
    /// Encrypts `data` (a multiple of 16 bytes).
    public static func encrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, key: key, iv: iv, encrypt: true, reference: false)
    }

    /// Decrypts `data` (a multiple of 16 bytes).
    public static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, key: key, iv: iv, encrypt: false, reference: false)
    }

    /// Whether the AES-NI path is used on this machine.
    public static var usesHardwareAES: Bool { copenssl_has_aesni() != 0 }

    /// The same operation through OpenSSL's `AES_ige_encrypt` only (to cross-check the fast path); also accepts
    /// 16- and 24-byte keys (AES-128/192-IGE, as in OpenSSL's own test vectors).
    public static func referenceCrypt(
        _ data: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool
    ) throws(CryptoError) -> [UInt8] {
        try run(data, key: key, iv: iv, encrypt: encrypt, reference: true)
    }

    /// Encrypts or decrypts in place into `output` (same length as `input`); no allocation.
    public static func crypt(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, key: [UInt8], iv: [UInt8],
        encrypt: Bool
    ) throws(CryptoError) {
        try check(count: input.count, key: key, iv: iv)
        guard output.count >= input.count else {
            throw .invalidLength(what: "output", expected: "≥ \(input.count)", actual: output.count)
        }
        key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                _ = copenssl_aes256_ige(
                    input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    output.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, k.baseAddress,
                    v.baseAddress, encrypt ? 1 : 0)
            }
        }
    }

    private static func check(count: Int, key: [UInt8], iv: [UInt8], anyKeySize: Bool = false) throws(CryptoError) {
        guard key.count == 32 || (anyKeySize && (key.count == 16 || key.count == 24)) else {
            throw .invalidLength(what: "AES-256 key", expected: "32", actual: key.count)
        }
        guard iv.count == 32 else { throw .invalidLength(what: "IGE IV", expected: "32", actual: iv.count) }
        guard count % 16 == 0 else {
            throw .invalidLength(what: "IGE data", expected: "a multiple of 16", actual: count)
        }
    }

    private static func run(
        _ data: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool, reference: Bool
    ) throws(CryptoError) -> [UInt8] {
        try check(count: data.count, key: key, iv: iv, anyKeySize: reference)
        guard !data.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: data.count)
        data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                key.withUnsafeBufferPointer { k in
                    iv.withUnsafeBufferPointer { v in
                        if reference {
                            _ = copenssl_aes_ige_reference(
                                input.baseAddress, output.baseAddress, data.count, k.baseAddress,
                                Int32(key.count * 8), v.baseAddress, encrypt ? 1 : 0)
                        } else {
                            _ = copenssl_aes256_ige(
                                input.baseAddress, output.baseAddress, data.count, k.baseAddress, v.baseAddress,
                                encrypt ? 1 : 0)
                        }
                    }
                }
            }
        }
        return out
    }
}
