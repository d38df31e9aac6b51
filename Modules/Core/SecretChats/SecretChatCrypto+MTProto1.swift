import CryptoUtils

/// Opening only, never sealing: MTProto 1.0 end-to-end messages, which a client that has not yet learned the other
/// side's layer (or speaks a layer below 73) still sends (core.telegram.org "End-to-End Encryption, Secret Chats":
/// MTProto 2.0 is the scheme from layer 73 on, 1.0 is deprecated; 1.0's key derivation is
/// core.telegram.org/mtproto_v1, Defining AES Key and Initialization Vector, with x = 0 for both directions in secret
/// chats):
///
/// ```
/// plaintext = int32 length ‖ payload ‖ 0…15 random padding bytes, a multiple of 16 in all
/// msg_key   = SHA1(length ‖ payload)[4 ..< 20]   (the padding is not covered)
/// sha1_a = SHA1(msg_key ‖ key[0..<32]);   sha1_b = SHA1(key[32..<48] ‖ msg_key ‖ key[48..<64])
/// sha1_c = SHA1(key[64..<96] ‖ msg_key);  sha1_d = SHA1(msg_key ‖ key[96..<128])
/// aes_key = a[0..<8] ‖ b[8..<20] ‖ c[4..<16];  aes_iv = a[8..<20] ‖ b[0..<8] ‖ c[16..<20] ‖ d[0..<8]
/// ```
///
/// Telegram-iOS opens with 2.0 and falls back to 1.0 (`submodules/TelegramCore/Sources/State/
/// ProcessSecretChatIncomingEncryptedOperations.swift`, `mode: .v2` then `.v1`); `SecretChatSession` decides when the
/// fallback is allowed at all.
extension SecretChatCrypto {
    /// Opens an MTProto 1.0 message with whichever of `keys` its fingerprint names. The same refusals as `open`, with
    /// 1.0's padding rule (0…15 bytes); the msg_key comparison is constant time.
    public static func openMTProto1(
        _ message: [UInt8], keys: [SecretChatKey]
    ) throws(OpenFailure)
        -> (payload: [UInt8], key: SecretChatKey)
    {
        guard message.count >= 8 + 16 + 16, (message.count - 24) % 16 == 0 else { throw .badLength(message.count) }
        let fingerprint = fingerprint(of: message) ?? 0
        guard let key = keys.first(where: { $0.fingerprint == fingerprint }) else {
            throw .unknownFingerprint(fingerprint)
        }
        let msgKey = Array(message[8..<24])
        let (aesKey, aesIV) = keyIVMTProto1(key: key, msgKey: msgKey)
        guard let plaintext = try? AESIGE.decrypt(Array(message[24...]), key: aesKey, iv: aesIV) else {
            throw .badLength(message.count)
        }
        let length = plaintext[0..<4].reversed().reduce(Int32(0)) { $0 << 8 | Int32($1) }
        let padding = plaintext.count - 4 - Int(length)
        // The length is checked before the digest here: 1.0's msg_key covers only what the length names.
        guard length > 0, length % 4 == 0, padding >= 0, padding <= 15 else {
            // Still compare a digest, so a wrong length costs what a wrong key does.
            _ = ConstantTime.equals(Array(Digest.sha1(plaintext)[4..<20]), msgKey)
            throw .messageKeyMismatch
        }
        let computed = Array(Digest.sha1(Array(plaintext[0..<(4 + Int(length))]))[4..<20])
        guard ConstantTime.equals(computed, msgKey) else { throw .messageKeyMismatch }
        return (Array(plaintext[4..<(4 + Int(length))]), key)
    }

    /// MTProto 1.0's AES key and IV from msg_key (x = 0: secret chats use the same for both sides).
    static func keyIVMTProto1(key: SecretChatKey, msgKey: [UInt8]) -> (key: [UInt8], iv: [UInt8]) {
        let k = key.bytes
        let a = Digest.sha1(msgKey, Array(k[0..<32]))
        let b = Digest.sha1(Array(k[32..<48]), msgKey, Array(k[48..<64]))
        let c = Digest.sha1(Array(k[64..<96]), msgKey)
        let d = Digest.sha1(msgKey, Array(k[96..<128]))
        let aesKey = Array(a[0..<8]) + Array(b[8..<20]) + Array(c[4..<16])
        let aesIV = Array(a[8..<20]) + Array(b[0..<8]) + Array(c[16..<20]) + Array(d[0..<8])
        return (aesKey, aesIV)
    }
}
