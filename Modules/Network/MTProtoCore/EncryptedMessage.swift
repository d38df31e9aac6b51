import Buffers
public import CryptoUtils

/// One decrypted MTProto 2.0 message: its header fields and body.
public struct DecryptedMessage: Sendable, Equatable {
    public let salt: Int64
    public let sessionId: Int64
    public let messageId: Int64
    public let seqNo: Int32
    public let body: [UInt8]
    /// The first 4 bytes of msg_key_large (with the top bit cleared): the quick-ack token the server answers with.
    public let quickAckToken: UInt32

    /// A message as `EncryptedMessage.decrypt` returns it (tests and fuzzers build them directly).
    public init(salt: Int64, sessionId: Int64, messageId: Int64, seqNo: Int32, body: [UInt8], quickAckToken: UInt32 = 0)
    {
        self.salt = salt
        self.sessionId = sessionId
        self.messageId = messageId
        self.seqNo = seqNo
        self.body = body
        self.quickAckToken = quickAckToken
    }
}

/// MTProto 2.0 encryption (MTProto §Encrypted Message, §Defining AES Key and Initialization Vector):
/// `auth_key_id ‖ msg_key ‖ AES-256-IGE(salt ‖ session_id ‖ msg_id ‖ seq_no ‖ length ‖ body ‖ padding)`.
public enum EncryptedMessage {
    /// Inner header bytes before the body: salt, session_id, message_id, seq_no, message_data_length.
    static let innerHeaderLength = 32
    /// Envelope bytes before the ciphertext: auth_key_id and msg_key.
    static let outerHeaderLength = 24

    /// Encrypts a message. `extraPadding` adds random 16-byte blocks (up to 1024 bytes of padding in all) to hide
    /// the length; `random` supplies the padding bytes.
    public static func encrypt(
        authKey: AuthKey, direction: MTProtoDirection, salt: Int64, sessionId: Int64, messageId: Int64, seqNo: Int32,
        body: [UInt8], extraPaddingBlocks: Int = 0, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) -> [UInt8] {
        seal(
            authKey: authKey, direction: direction, salt: salt, sessionId: sessionId, messageId: messageId,
            seqNo: seqNo, body: body, extraPaddingBlocks: extraPaddingBlocks, random: random
        ).packet
    }

    /// `encrypt`, also returning the packet's quick-ack token: the first 32 bits of msg_key_large with the top bit
    /// cleared, what the server answers with when the transport asks for a quick ack (core.telegram.org/mtproto/
    /// mtproto-transports "Quick ack"; the same value `decrypt` gives the receiver as `quickAckToken`).
    public static func seal(
        authKey: AuthKey, direction: MTProtoDirection, salt: Int64, sessionId: Int64, messageId: Int64, seqNo: Int32,
        body: [UInt8], extraPaddingBlocks: Int = 0, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) -> (packet: [UInt8], quickAckToken: UInt32) {
        // 12...1024 bytes of padding, bringing the total to a multiple of 16. Known before writing, so the buffer is
        // allocated at its exact size (a packet's worth, not a kilobyte more each time).
        let unpadded = innerHeaderLength + body.count
        var padding = 12 + (16 - (unpadded + 12) % 16) % 16
        padding += 16 * max(0, min(extraPaddingBlocks, (1024 - padding) / 16))
        var plain = WriteBuffer(capacity: unpadded + padding)
        plain.writeLittleEndian(salt)
        plain.writeLittleEndian(sessionId)
        plain.writeLittleEndian(messageId)
        plain.writeLittleEndian(seqNo)
        plain.writeLittleEndian(Int32(body.count))
        plain.write(contentsOf: body)
        plain.write(contentsOf: random(padding))
        let plaintext = plain.bytes
        let messageKeyLarge = MTProtoKeyDerivation.messageKeyLarge(
            authKey: authKey.bytes, paddedPlaintext: plaintext, direction: direction)
        let messageKey = Array(messageKeyLarge[8..<24])
        let (key, iv) = MTProtoKeyDerivation.aesKeyIV(
            authKey: authKey.bytes, messageKey: messageKey, direction: direction)
        // Key and IV are 32 bytes and the plaintext a multiple of 16 by construction.
        let ciphertext = (try? AESIGE.encrypt(plaintext, key: key, iv: iv)) ?? []
        var out = WriteBuffer(capacity: outerHeaderLength + ciphertext.count)
        out.writeLittleEndian(authKey.id)
        out.write(contentsOf: messageKey)
        out.write(contentsOf: ciphertext)
        return (out.bytes, quickAckToken(messageKeyLarge))
    }

    /// The quick-ack token of a packet with this msg_key_large.
    static func quickAckToken(_ large: [UInt8]) -> UInt32 {
        (UInt32(large[0]) | UInt32(large[1]) << 8 | UInt32(large[2]) << 16 | UInt32(large[3]) << 24) & 0x7fff_ffff
    }

    /// The auth_key_id a packet names (its first 8 bytes), to find the key before decrypting.
    public static func authKeyId(of packet: [UInt8]) -> Int64? {
        guard packet.count >= 8 else { return nil }
        var reader = ReadBuffer(packet)
        return try? reader.readLittleEndian(Int64.self)
    }

    /// Decrypts and checks a packet: the auth_key_id, the recomputed msg_key, the length and the padding bounds
    /// (MTProto security guidelines §Checking SHA256 hash value of msg_key, §Checking message length). Trailing bytes
    /// that do not fill a 16-byte block (padded intermediate transport) are ignored. The session id and msg_id are
    /// checked by the session, which knows what to expect.
    public static func decrypt(
        _ packet: [UInt8], authKey: AuthKey, direction: MTProtoDirection
    ) throws(EnvelopeError) -> DecryptedMessage {
        guard packet.count >= outerHeaderLength + innerHeaderLength + 16 else { throw .truncated }
        guard authKeyId(of: packet) == authKey.id else { throw .unknownAuthKey(authKeyId(of: packet) ?? 0) }
        let messageKey = Array(packet[8..<24])
        let cipherLength = (packet.count - outerHeaderLength) / 16 * 16
        let ciphertext = Array(packet[outerHeaderLength..<(outerHeaderLength + cipherLength)])
        let (key, iv) = MTProtoKeyDerivation.aesKeyIV(
            authKey: authKey.bytes, messageKey: messageKey, direction: direction)
        guard let plaintext = try? AESIGE.decrypt(ciphertext, key: key, iv: iv) else { throw .truncated }
        let large = MTProtoKeyDerivation.messageKeyLarge(
            authKey: authKey.bytes, paddedPlaintext: plaintext, direction: direction)
        // Compare every byte before deciding, so timing does not say where a forged msg_key first differs.
        var difference: UInt8 = 0
        for i in 0..<16 { difference |= large[8 + i] ^ messageKey[i] }
        guard difference == 0 else { throw .messageKeyMismatch }
        var reader = ReadBuffer(plaintext)
        do {
            let salt = try reader.readLittleEndian(Int64.self)
            let sessionId = try reader.readLittleEndian(Int64.self)
            let messageId = try reader.readLittleEndian(Int64.self)
            let seqNo = try reader.readLittleEndian(Int32.self)
            let length = Int(try reader.readLittleEndian(Int32.self))
            guard length >= 0, length % 4 == 0, length <= reader.remaining else {
                throw EnvelopeError.invalidLength(length)
            }
            let padding = reader.remaining - length
            guard (12...1024).contains(padding) else { throw EnvelopeError.invalidPadding(padding) }
            let body = try reader.readBytes(length)
            return DecryptedMessage(
                salt: salt, sessionId: sessionId, messageId: messageId, seqNo: seqNo, body: body,
                quickAckToken: quickAckToken(large))
        } catch let error as EnvelopeError {
            throw error
        } catch {
            throw .truncated
        }
    }
}
