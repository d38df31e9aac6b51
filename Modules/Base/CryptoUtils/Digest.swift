import COpenSSL

/// SHA-1, SHA-256 and SHA-512 over libcrypto (MTProto uses SHA-1 in the auth-key exchange and key ids, SHA-256 in
/// MTProto 2.0 message keys, SHA-512 in PBKDF2 for 2FA).
public enum Digest {
    /// SHA-1 (20 bytes).
    public static func sha1(_ data: [UInt8]) -> [UInt8] { hash(data, fetchedSHA1, 20) }
    /// SHA-256 (32 bytes).
    public static func sha256(_ data: [UInt8]) -> [UInt8] { hash(data, fetchedSHA256, 32) }
    /// SHA-512 (64 bytes).
    public static func sha512(_ data: [UInt8]) -> [UInt8] { hash(data, EVP_sha512(), 64) }

    /// MD5 (16 bytes) — only where a protocol names it (the key fingerprint of a secret chat's file).
    public static func md5(_ data: [UInt8]) -> [UInt8] { hash(data, EVP_md5(), 16) }

    /// SHA-1 of the concatenation of `parts`, without building it.
    public static func sha1(_ parts: [UInt8]...) -> [UInt8] { hash(parts, fetchedSHA1, 20) }
    /// SHA-256 of the concatenation of `parts`, without building it.
    public static func sha256(_ parts: [UInt8]...) -> [UInt8] { hash(parts, fetchedSHA256, 32) }

    /// SHA-1 and SHA-256 fetched from the default provider once. Given `EVP_sha1()` / `EVP_sha256()`, OpenSSL 3
    /// looks the implementation up again on every digest (a locked table search, a few hundred ns — as much as
    /// hashing a whole MTProto packet); a fetched one skips that. Never freed: they live as long as the process.
    private nonisolated(unsafe) static let fetchedSHA1: OpaquePointer? = EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1()
    private nonisolated(unsafe) static let fetchedSHA256: OpaquePointer? =
        EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()

    private static func hash(_ data: [UInt8], _ md: OpaquePointer?, _ size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer {
                EVP_Digest(input.baseAddress, input.count, $0.baseAddress, &length, md, nil)
            }
        }
        precondition(ok == 1 && Int(length) == size, "EVP_Digest failed")  // only on allocation failure
        return out
    }

    private static func hash(_ parts: [[UInt8]], _ md: OpaquePointer?, _ size: Int) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestInit_ex(context, md, nil) == 1, "EVP_DigestInit_ex failed")
        for part in parts {
            part.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &out, &length) == 1 && Int(length) == size, "digest failed")
        return out
    }
}
