public import CryptoUtils

/// MTProto 2.0 end-to-end encryption of one `decryptedMessageLayer` (core.telegram.org "End-to-End Encryption,
/// Secret Chats", Serialization and Encryption of Outgoing Messages / Decryption):
///
/// ```
/// plaintext   = int32 length ‖ payload ‖ 12…1024 random padding bytes, a multiple of 16 in all
/// x           = 0 for messages from the chat's originator, 8 for messages from the participant
/// msg_key     = SHA256(key[88+x ..< 120+x] ‖ plaintext)[8 ..< 24]
/// sha256_a    = SHA256(msg_key ‖ key[x ..< 36+x]);  sha256_b = SHA256(key[40+x ..< 76+x] ‖ msg_key)
/// aes_key     = a[0..<8] ‖ b[8..<24] ‖ a[24..<32];   aes_iv   = b[0..<8] ‖ a[8..<24] ‖ b[24..<32]
/// message     = key_fingerprint (int64) ‖ msg_key ‖ AES-256-IGE(plaintext)
/// ```
public enum SecretChatCrypto {
    /// Why a received message was dropped (never shown; the docs' checks in the order they run).
    public enum OpenFailure: Error, Equatable, Sendable {
        /// Shorter than fingerprint + msg_key + two blocks, or the ciphertext is not whole blocks.
        case badLength(Int)
        /// No key of this chat has the message's fingerprint.
        case unknownFingerprint(Int64)
        /// The msg_key recomputed over the decrypted plaintext differs (modified ciphertext, wrong key or wrong x).
        case messageKeyMismatch
        /// The length inside is not positive, not a multiple of 4, or leaves under 12 or over 1024 padding bytes.
        case badInnerLength(Int32)
    }

    /// The sender's x.
    static func x(sender: SecretChatRole) -> Int { sender == .originator ? 0 : 8 }

    /// Seals `payload` (a serialized `decryptedMessageLayer`) from `sender` under `key`, with `paddingLength`
    /// random bytes chosen in 12…1024 so that the plaintext is whole blocks.
    public static func seal(
        _ payload: [UInt8], key: SecretChatKey, sender: SecretChatRole, random: SecretChatRandom = .secure
    ) -> [UInt8] {
        var plaintext = withUnsafeBytes(of: Int32(payload.count).littleEndian) { Array($0) } + payload
        var padding = 12 + (16 - (plaintext.count + 12) % 16) % 16
        // A little more at random, in whole blocks, so lengths say less (at most 1024 in all).
        let extraBlocks = Int(random.bytes(1)[0] % 5)
        padding += extraBlocks * 16
        plaintext += random.bytes(padding)
        let x = x(sender: sender)
        let msgKey = Array(Digest.sha256(Array(key.bytes[(88 + x)..<(120 + x)]), plaintext)[8..<24])
        let (aesKey, aesIV) = keyIV(key: key, msgKey: msgKey, x: x)
        let encrypted = (try? AESIGE.encrypt(plaintext, key: aesKey, iv: aesIV)) ?? []
        let fingerprint = withUnsafeBytes(of: key.fingerprint.littleEndian) { Array($0) }
        return fingerprint + msgKey + encrypted
    }

    /// The key fingerprint a sealed message names (its first 8 bytes), or nil when it is too short.
    public static func fingerprint(of message: [UInt8]) -> Int64? {
        guard message.count >= 8 else { return nil }
        return message[0..<8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// Opens a message from `sender` with whichever of `keys` its fingerprint names; returns the payload and the
    /// key that opened it. Every check of the docs' decryption section runs; the msg_key comparison is constant time.
    public static func open(
        _ message: [UInt8], keys: [SecretChatKey], sender: SecretChatRole
    ) throws(OpenFailure)
        -> (payload: [UInt8], key: SecretChatKey)
    {
        guard message.count >= 8 + 16 + 32, (message.count - 24) % 16 == 0 else { throw .badLength(message.count) }
        let fingerprint = fingerprint(of: message) ?? 0
        guard let key = keys.first(where: { $0.fingerprint == fingerprint }) else {
            throw .unknownFingerprint(fingerprint)
        }
        let msgKey = Array(message[8..<24])
        let x = x(sender: sender)
        let (aesKey, aesIV) = keyIV(key: key, msgKey: msgKey, x: x)
        guard let plaintext = try? AESIGE.decrypt(Array(message[24...]), key: aesKey, iv: aesIV) else {
            throw .badLength(message.count)
        }
        let computed = Digest.sha256(Array(key.bytes[(88 + x)..<(120 + x)]), plaintext)[8..<24]
        guard ConstantTime.equals(computed, msgKey) else { throw .messageKeyMismatch }
        let length = plaintext[0..<4].reversed().reduce(Int32(0)) { $0 << 8 | Int32($1) }
        let padding = plaintext.count - 4 - Int(length)
        guard length > 0, length % 4 == 0, padding >= 12, padding <= 1024 else { throw .badInnerLength(length) }
        return (Array(plaintext[4..<(4 + Int(length))]), key)
    }

    static func keyIV(key: SecretChatKey, msgKey: [UInt8], x: Int) -> (key: [UInt8], iv: [UInt8]) {
        let a = Digest.sha256(msgKey, Array(key.bytes[x..<(x + 36)]))
        let b = Digest.sha256(Array(key.bytes[(40 + x)..<(76 + x)]), msgKey)
        let aesKey = Array(a[0..<8]) + Array(b[8..<24]) + Array(a[24..<32])
        let aesIV = Array(b[0..<8]) + Array(a[8..<24]) + Array(b[24..<32])
        return (aesKey, aesIV)
    }
}
