/// Which way a message travels: MTProto takes key material at offset x = 0 from the client and x = 8 from the server.
public enum MTProtoDirection: Sendable {
    case clientToServer
    case serverToClient

    /// The offset x of MTProto 2.0 §Defining AES Key and Initialization Vector.
    public var x: Int { self == .clientToServer ? 0 : 8 }
}

/// MTProto's message keys and AES key/IV derivation, and the auth-key exchange's temporary key and hashes.
public enum MTProtoKeyDerivation {
    /// MTProto 2.0 `msg_key`: bytes 8..<24 of SHA-256(auth_key[88+x ..< 120+x] ‖ plaintext with padding).
    public static func messageKey(authKey: [UInt8], paddedPlaintext: [UInt8], direction: MTProtoDirection) -> [UInt8] {
        Array(messageKeyLarge(authKey: authKey, paddedPlaintext: paddedPlaintext, direction: direction)[8..<24])
    }

    /// The whole SHA-256 behind `msg_key` (its first 4 bytes are the quick-ack token).
    public static func messageKeyLarge(
        authKey: [UInt8], paddedPlaintext: [UInt8], direction: MTProtoDirection
    ) -> [UInt8] {
        let x = direction.x
        return Digest.sha256(Array(authKey[(88 + x)..<(120 + x)]), paddedPlaintext)
    }

    /// MTProto 2.0 AES key and IV: a = SHA-256(msg_key ‖ auth_key[x..<x+36]), b = SHA-256(auth_key[40+x..<76+x] ‖
    /// msg_key); key = a[0..<8] ‖ b[8..<24] ‖ a[24..<32]; iv = b[0..<8] ‖ a[8..<24] ‖ b[24..<32].
    public static func aesKeyIV(
        authKey: [UInt8], messageKey: [UInt8], direction: MTProtoDirection
    ) -> (key: [UInt8], iv: [UInt8]) {
        let x = direction.x
        let a = Digest.sha256(messageKey, Array(authKey[x..<(x + 36)]))
        let b = Digest.sha256(Array(authKey[(40 + x)..<(76 + x)]), messageKey)
        // Each built in one allocation (this runs for every packet sent and received).
        var key: [UInt8] = []
        key.reserveCapacity(32)
        key += a[0..<8]
        key += b[8..<24]
        key += a[24..<32]
        var iv: [UInt8] = []
        iv.reserveCapacity(32)
        iv += b[0..<8]
        iv += a[8..<24]
        iv += b[24..<32]
        return (key, iv)
    }

    /// MTProto 1.0 AES key and IV (SHA-1 based; kept for completeness and old secret-chat layers).
    public static func aesKeyIVv1(
        authKey: [UInt8], messageKey: [UInt8], direction: MTProtoDirection
    ) -> (key: [UInt8], iv: [UInt8]) {
        let x = direction.x
        let a = Digest.sha1(messageKey, Array(authKey[x..<(x + 32)]))
        let b = Digest.sha1(Array(authKey[(32 + x)..<(48 + x)]), messageKey, Array(authKey[(48 + x)..<(64 + x)]))
        let c = Digest.sha1(Array(authKey[(64 + x)..<(96 + x)]), messageKey)
        let d = Digest.sha1(messageKey, Array(authKey[(96 + x)..<(128 + x)]))
        let key = Array(a[0..<8]) + Array(b[8..<20]) + Array(c[4..<16])
        let iv = Array(a[8..<20]) + Array(b[0..<8]) + Array(c[16..<20]) + Array(d[0..<8])
        return (key, iv)
    }

    /// The temporary AES key and IV that protect `server_DH_inner_data` and `client_DH_inner_data` (step 5):
    /// key = SHA1(new_nonce ‖ server_nonce) ‖ SHA1(server_nonce ‖ new_nonce)[0..<12];
    /// iv = SHA1(server_nonce ‖ new_nonce)[12..<20] ‖ SHA1(new_nonce ‖ new_nonce) ‖ new_nonce[0..<4].
    public static func temporaryAESKeyIV(newNonce: [UInt8], serverNonce: [UInt8]) -> (key: [UInt8], iv: [UInt8]) {
        let ns = Digest.sha1(newNonce, serverNonce)
        let sn = Digest.sha1(serverNonce, newNonce)
        let nn = Digest.sha1(newNonce, newNonce)
        return (ns + Array(sn[0..<12]), Array(sn[12..<20]) + nn + Array(newNonce[0..<4]))
    }

    /// `new_nonce_hashN`: the last 16 bytes of SHA1(new_nonce ‖ N ‖ auth_key_aux_hash) for N = 1, 2, 3
    /// (dh_gen_ok, dh_gen_retry, dh_gen_fail).
    public static func newNonceHash(newNonce: [UInt8], authKey: [UInt8], number: UInt8) -> [UInt8] {
        Array(Digest.sha1(newNonce, [number], authKeyAuxHash(authKey))[4..<20])
    }

    /// `auth_key_aux_hash`: the first 8 bytes of SHA1(auth_key).
    public static func authKeyAuxHash(_ authKey: [UInt8]) -> [UInt8] { Array(Digest.sha1(authKey)[0..<8]) }

    /// `auth_key_id`: the last 8 bytes of SHA1(auth_key), as the little-endian integer sent on the wire.
    public static func authKeyId(_ authKey: [UInt8]) -> UInt64 {
        Digest.sha1(authKey)[12..<20].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// The first server salt: new_nonce[0..<8] ⊕ server_nonce[0..<8].
    public static func initialServerSalt(newNonce: [UInt8], serverNonce: [UInt8]) -> [UInt8] {
        zip(newNonce[0..<8], serverNonce[0..<8]).map { $0 ^ $1 }
    }
}
