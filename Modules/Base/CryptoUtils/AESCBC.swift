import COpenSSL

/// AES-256 in CBC mode without padding (whole 16-byte blocks), as Telegram encrypts the signed `help.configSimple`
/// it publishes for clients that cannot reach a data center (TDLib `td/telegram/ConfigManager.cpp`, `decode_config`).
public enum AESCBC {
    /// Encrypts `data` (a multiple of 16 bytes) with a 32-byte key and a 16-byte IV.
    public static func encrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, key: key, iv: iv, encrypt: true)
    }

    /// Decrypts `data` (a multiple of 16 bytes) with a 32-byte key and a 16-byte IV.
    public static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, key: key, iv: iv, encrypt: false)
    }

    private static func run(_ data: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool) throws(CryptoError) -> [UInt8] {
        guard key.count == 32 else { throw .invalidLength(what: "AES-256 key", expected: "32", actual: key.count) }
        guard iv.count == 16 else { throw .invalidLength(what: "CBC IV", expected: "16", actual: iv.count) }
        guard data.count % 16 == 0 else {
            throw .invalidLength(what: "CBC data", expected: "a multiple of 16", actual: data.count)
        }
        guard !data.isEmpty else { return [] }
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_CipherInit_ex(context, EVP_aes_256_cbc(), nil, key, iv, encrypt ? 1 : 0) == 1,
            EVP_CIPHER_CTX_set_padding(context, 0) == 1
        else { throw .openSSL("EVP_CipherInit_ex(aes-256-cbc)") }
        var out = [UInt8](repeating: 0, count: data.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let updated = out.withUnsafeMutableBufferPointer { output in
            EVP_CipherUpdate(context, output.baseAddress, &written, data, Int32(data.count)) == 1
                && EVP_CipherFinal_ex(context, output.baseAddress! + Int(written), &final) == 1
        }
        guard updated, Int(written + final) == data.count else { throw .openSSL("EVP_Cipher(aes-256-cbc)") }
        out.removeLast(out.count - data.count)
        return out
    }
}
