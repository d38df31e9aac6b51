public import CryptoUtils
import MTProtoApi
import TLRuntime

/// `auth.bindTempAuthKey`'s `encrypted_message` (core.telegram.org/method/auth.bindTempAuthKey, "Binding message
/// contents" and "Generating encrypted_message"; "Perfect Forward Secrecy"): a `bind_auth_key_inner` encrypted with
/// the permanent key in MTProto 1.0's format, so that only a holder of the permanent key can bind a temporary one to
/// it. The client builds it (`seal`); the server opens and checks it (`open`).
///
/// Plaintext: random:int128 (in place of salt and session id), the msg_id of the `auth.bindTempAuthKey` call itself,
/// seq_no 0, msg_len 40, the 40-byte `bind_auth_key_inner`, then random padding to a multiple of 16 bytes. Sent as
/// perm_auth_key_id ‖ msg_key ‖ AES-256-IGE(plaintext), msg_key being the 128 lower-order bits of SHA-1 of the
/// plaintext before padding, the AES key and IV MTProto 1.0's (`MTProtoKeyDerivation.aesKeyIVv1`, x = 0).
public enum TemporaryKeyBinding {
    /// What `bind_auth_key_inner` says.
    public struct Inner: Equatable, Sendable {
        public var nonce: Int64
        public var temporaryKeyId: Int64
        public var permanentKeyId: Int64
        /// The session the binding call is made in.
        public var temporarySessionId: Int64
        /// When the binding (and the temporary key) ends, Unix time.
        public var expiresAt: Int32

        public init(
            nonce: Int64, temporaryKeyId: Int64, permanentKeyId: Int64, temporarySessionId: Int64, expiresAt: Int32
        ) {
            self.nonce = nonce
            self.temporaryKeyId = temporaryKeyId
            self.permanentKeyId = permanentKeyId
            self.temporarySessionId = temporarySessionId
            self.expiresAt = expiresAt
        }
    }

    /// Why an `encrypted_message` was refused (the server answers 400 `ENCRYPTED_MESSAGE_INVALID` for each).
    public enum Failure: Error, Equatable, Sendable {
        /// Not perm_auth_key_id ‖ msg_key ‖ whole AES blocks, or longer than `maximumLength`.
        case malformedLength(Int)
        /// The first eight bytes name another key than the permanent key it is opened with.
        case wrongKey
        /// msg_key is not the SHA-1 of what decrypted, or msg_len / padding do not fit.
        case messageKeyMismatch
        /// The inner message is not a `bind_auth_key_inner` of 40 bytes.
        case notABinding
        /// The msg_id inside is not the binding call's, or seq_no is not 0.
        case messageIdMismatch
    }

    /// Longer encrypted messages are refused before any work.
    public static let maximumLength = 24 + 128
    static let innerLength = 40

    /// The `encrypted_message` for a binding call sent with msg_id `messageId`.
    public static func seal(
        _ inner: Inner, permanentKey: AuthKey, messageId: Int64, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) -> [UInt8] {
        let body = MTProto.BindAuthKeyInner.bindAuthKeyInner(
            .init(
                nonce: inner.nonce, tempAuthKeyId: inner.temporaryKeyId, permAuthKeyId: inner.permanentKeyId,
                tempSessionId: inner.temporarySessionId, expiresAt: inner.expiresAt)
        ).serialized()
        var writer = TLWriter()
        writer.writeRaw(random(16))
        writer.writeInt64(messageId)
        writer.writeInt32(0)
        writer.writeInt32(Int32(body.count))
        writer.writeRaw(body)
        let plaintext = writer.bytes
        let messageKey = Array(Digest.sha1(plaintext)[4..<20])
        let padded = plaintext + random((16 - plaintext.count % 16) % 16)
        let (key, iv) = MTProtoKeyDerivation.aesKeyIVv1(
            authKey: permanentKey.bytes, messageKey: messageKey, direction: .clientToServer)
        // Whole blocks by construction, so IGE cannot refuse them.
        let encrypted = (try? AESIGE.encrypt(padded, key: key, iv: iv)) ?? []
        var out = TLWriter()
        out.writeInt64(permanentKey.id)
        out.writeRaw(messageKey)
        out.writeRaw(encrypted)
        return out.bytes
    }

    /// Opens an `encrypted_message` with the permanent key it names and checks its framing against the binding call's
    /// msg_id; the caller then compares the fields with the call and the connection (nonce, keys, session, expiry).
    public static func open(_ message: [UInt8], permanentKey: AuthKey, messageId: Int64) throws(Failure) -> Inner {
        guard message.count <= maximumLength, message.count > 24, (message.count - 24) % 16 == 0 else {
            throw .malformedLength(message.count)
        }
        var reader = TLReader(message)
        guard (try? reader.readInt64()) == permanentKey.id else { throw .wrongKey }
        let messageKey = Array(message[8..<24])
        let (key, iv) = MTProtoKeyDerivation.aesKeyIVv1(
            authKey: permanentKey.bytes, messageKey: messageKey, direction: .clientToServer)
        guard let plaintext = try? AESIGE.decrypt(Array(message[24...]), key: key, iv: iv) else {
            throw .malformedLength(message.count)
        }
        var header = TLReader(Array(plaintext[16...]))
        guard let id = try? header.readInt64(), let seqNo = try? header.readInt32(),
            let length = try? header.readInt32()
        else {
            throw .messageKeyMismatch
        }
        // msg_len must fit what decrypted with at most 15 bytes of padding, and msg_key must be its SHA-1.
        let end = 32 + Int(length)
        guard length >= 0, end <= plaintext.count, plaintext.count - end < 16,
            ConstantTime.equals(Array(Digest.sha1(Array(plaintext[0..<end]))[4..<20]), messageKey)
        else { throw .messageKeyMismatch }
        guard id == messageId, seqNo == 0 else { throw .messageIdMismatch }
        guard Int(length) == innerLength,
            case .bindAuthKeyInner(let inner)? = try? MTProto.BindAuthKeyInner(tlBytes: Array(plaintext[32..<end]))
        else { throw .notABinding }
        return Inner(
            nonce: inner.nonce, temporaryKeyId: inner.tempAuthKeyId, permanentKeyId: inner.permAuthKeyId,
            temporarySessionId: inner.tempSessionId, expiresAt: inner.expiresAt)
    }
}
