import COpenSSL

/// X25519 (RFC 7748) key generation through libcrypto's EVP interface.
public enum X25519 {
    /// The 32-byte public key of a fresh random X25519 key pair (the private half is dropped): a real curve point,
    /// for a TLS ClientHello's `key_share` that has to look like a browser's (RFC 8446 §4.2.8.2).
    public static func randomPublicKey() -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, nil) else { preconditionFailure("no X25519") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        precondition(EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_keygen(context, &key) == 1, "X25519 keygen")
        defer { EVP_PKEY_free(key) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        precondition(EVP_PKEY_get_raw_public_key(key, &out, &length) == 1 && length == 32, "X25519 public key")
        return out
    }
}
