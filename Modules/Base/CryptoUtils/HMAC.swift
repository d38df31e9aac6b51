import COpenSSL

/// HMAC-SHA256 (RFC 2104 over SHA-256, FIPS 180-4) through libcrypto's one-shot `HMAC`: what MTProxy's fake-TLS
/// handshake signs its hellos with.
public enum HMAC {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func sha256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { input in
                out.withUnsafeMutableBufferPointer {
                    COpenSSL.HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), input.baseAddress, input.count,
                        $0.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC failed")  // only on allocation failure
        return out
    }
}
