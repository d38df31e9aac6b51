import COpenSSL

/// AES-256-CTR as a stateful stream: each call continues the keystream where the last one stopped (the obfuscated
/// TCP transport encrypts every byte of the connection this way; MTProto §Transport obfuscation).
///
/// Not `Sendable`: it owns an OpenSSL cipher context; keep each instance on one queue or task.
public final class AESCTR {
    private let context: OpaquePointer

    /// A stream with a 32-byte key and a 16-byte initial counter block.
    public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        guard key.count == 32 else { throw .invalidLength(what: "AES-256 key", expected: "32", actual: key.count) }
        guard iv.count == 16 else { throw .invalidLength(what: "CTR IV", expected: "16", actual: iv.count) }
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("EVP_CIPHER_CTX_new") }
        guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, iv) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw .openSSL("EVP_EncryptInit_ex(aes-256-ctr)")
        }
        self.context = context
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
    }

    /// Encrypts or decrypts (the same operation) the next bytes of the stream.
    public func process(_ data: [UInt8]) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: data.count)
        data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in process(input, into: output) }
        }
        return out
    }

    /// Processes `input` into `output` (at least as long), continuing the stream.
    public func process(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= input.count, "AESCTR output shorter than input")
        var written: Int32 = 0
        var offset = 0
        // EVP_EncryptUpdate takes an Int32 length: feed large inputs in slices.
        while offset < input.count {
            let slice = min(input.count - offset, 1 << 30)
            let ok = EVP_EncryptUpdate(
                context, output.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), &written,
                input.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(slice))
            precondition(ok == 1, "EVP_EncryptUpdate(aes-256-ctr) failed")
            offset += slice
        }
    }
}
