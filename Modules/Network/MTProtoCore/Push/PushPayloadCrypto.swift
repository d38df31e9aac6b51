import Buffers
public import CryptoUtils

/// Why an encrypted push could not be opened.
public enum PushPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the key id, msg_key and one AES block, or a ciphertext that is not whole 16-byte blocks.
    case truncated(Int)
    /// The push names another key.
    case keyIdMismatch
    /// The recomputed msg_key differs: the payload was changed, or it was made with another key.
    case messageKeyMismatch
    /// The length inside does not fit the decrypted bytes.
    case invalidLength(Int)

    public var description: String {
        switch self {
        case .truncated(let count): return "the encrypted payload is truncated (\(count) bytes)"
        case .keyIdMismatch: return "the payload names another notification key"
        case .messageKeyMismatch: return "msg_key does not match the decrypted payload (tampered, or another key)"
        case .invalidLength(let length): return "the decrypted payload claims \(length) bytes"
        }
    }
}

/// Encrypted push payloads (core.telegram.org "Handling PUSH-notifications", encrypted notifications; Telegram-iOS
/// `decryptedNotificationPayload`): `key_id (8) ‖ msg_key (16) ‖ AES-256-IGE(length (int32) ‖ payload ‖ padding)`,
/// with MTProto 2.0's msg_key and key derivation over the 256-byte secret at x = 8 (server to client).
public enum PushPayloadCrypto {
    static let headerLength = 24

    /// Encrypts `payload` (the JSON) for a device holding `key`; `random` supplies the padding (12–27 bytes, to a
    /// whole block).
    public static func encrypt(
        _ payload: [UInt8], key: NotificationKey, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) -> [UInt8] {
        var plain = WriteBuffer(capacity: payload.count + 32)
        plain.writeLittleEndian(Int32(truncatingIfNeeded: payload.count))
        plain.write(contentsOf: payload)
        plain.write(contentsOf: random(12 + (16 - (plain.count + 12) % 16) % 16))
        let plaintext = plain.bytes
        let messageKey = MTProtoKeyDerivation.messageKey(
            authKey: key.bytes, paddedPlaintext: plaintext, direction: .serverToClient)
        let (aesKey, iv) = MTProtoKeyDerivation.aesKeyIV(
            authKey: key.bytes, messageKey: messageKey, direction: .serverToClient)
        // A 32-byte key and IV and whole blocks by construction.
        let ciphertext = (try? AESIGE.encrypt(plaintext, key: aesKey, iv: iv)) ?? []
        return key.id + messageKey + ciphertext
    }

    /// The key id an encrypted push starts with, to find the key; `nil` when it is shorter than that.
    public static func keyId(of data: [UInt8]) -> [UInt8]? {
        data.count >= 8 ? Array(data[0..<8]) : nil
    }

    /// Decrypts and checks a push: its key id, whole blocks, the recomputed msg_key (compared in constant time) and
    /// the length inside. Returns the payload (the JSON).
    public static func decrypt(_ data: [UInt8], key: NotificationKey) throws(PushPayloadError) -> [UInt8] {
        guard data.count >= headerLength + 16, (data.count - headerLength) % 16 == 0 else {
            throw .truncated(data.count)
        }
        guard Array(data[0..<8]) == key.id else { throw .keyIdMismatch }
        let messageKey = Array(data[8..<24])
        let (aesKey, iv) = MTProtoKeyDerivation.aesKeyIV(
            authKey: key.bytes, messageKey: messageKey, direction: .serverToClient)
        guard let plaintext = try? AESIGE.decrypt(Array(data[headerLength...]), key: aesKey, iv: iv) else {
            throw .truncated(data.count)
        }
        let check = MTProtoKeyDerivation.messageKey(
            authKey: key.bytes, paddedPlaintext: plaintext, direction: .serverToClient)
        var difference: UInt8 = 0
        for i in 0..<16 { difference |= check[i] ^ messageKey[i] }
        guard difference == 0 else { throw .messageKeyMismatch }
        let length = Int(Int32(littleEndian: plaintext.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }))
        guard length >= 0, length <= plaintext.count - 4 else { throw .invalidLength(length) }
        return Array(plaintext[4..<(4 + length)])
    }
}
