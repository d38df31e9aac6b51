import CryptoUtils
import MTProtoCore
import Testing

/// MTProto 2.0 envelopes: a round trip, and each receive-side check of `EncryptedMessage.decrypt` on a packet whose
/// msg_key is right for its (wrong) plaintext, so only that check can refuse it.
@Suite struct EncryptedMessageTests {
    typealias W = Wire

    /// Encrypts a plaintext exactly as given (no padding added), with a correct msg_key for it.
    static func packet(plaintext: [UInt8], direction: MTProtoDirection = .clientToServer) throws -> [UInt8] {
        let large = MTProtoKeyDerivation.messageKeyLarge(authKey: W.key.bytes, paddedPlaintext: plaintext, direction: direction)
        let messageKey = Array(large[8..<24])
        let (key, iv) = MTProtoKeyDerivation.aesKeyIV(authKey: W.key.bytes, messageKey: messageKey, direction: direction)
        var id = W.key.id.littleEndian
        let idBytes = withUnsafeBytes(of: &id) { Array($0) }
        return idBytes + messageKey + (try AESIGE.encrypt(plaintext, key: key, iv: iv))
    }

    /// salt, session, msg_id, seq_no, length, body, then `padding` bytes.
    static func plaintext(body: [UInt8], claimedLength: Int32? = nil, padding: Int) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        return le(W.salt) + le(W.sessionId) + le(W.id(W.now)) + le(Int32(1)) + le(claimedLength ?? Int32(body.count)) + body
            + [UInt8](repeating: 0xaa, count: padding)
    }

    @Test func roundTripAndEveryCheck() throws {
        let body = W.ping(3)
        let sealed = EncryptedMessage.encrypt(
            authKey: W.key, direction: .clientToServer, salt: W.salt, sessionId: W.sessionId, messageId: W.id(W.now),
            seqNo: 1, body: body)
        let opened = try EncryptedMessage.decrypt(sealed, authKey: W.key, direction: .clientToServer)
        #expect(opened.body == body && opened.sessionId == W.sessionId && opened.salt == W.salt)
        // The other direction's keys do not open it (x = 0 vs 8).
        #expect(throws: EnvelopeError.messageKeyMismatch) { try EncryptedMessage.decrypt(sealed, authKey: W.key, direction: .serverToClient) }
        var flipped = sealed
        flipped[sealed.count - 1] ^= 1
        #expect(throws: EnvelopeError.messageKeyMismatch) { try EncryptedMessage.decrypt(flipped, authKey: W.key, direction: .clientToServer) }
        #expect(throws: EnvelopeError.truncated) { try EncryptedMessage.decrypt(Array(sealed.prefix(40)), authKey: W.key, direction: .clientToServer) }
        let other = try #require(AuthKey(bytes: [UInt8](repeating: 1, count: 256)))
        #expect(throws: EnvelopeError.unknownAuthKey(W.key.id)) { try EncryptedMessage.decrypt(sealed, authKey: other, direction: .clientToServer) }
        // Padding below 12 and above 1024 bytes (MTProto 2.0), with a valid msg_key each time.
        let short = try Self.packet(plaintext: Self.plaintext(body: body, padding: 4))
        #expect(throws: EnvelopeError.invalidPadding(4)) { try EncryptedMessage.decrypt(short, authKey: W.key, direction: .clientToServer) }
        let long = try Self.packet(plaintext: Self.plaintext(body: body, padding: 1028))
        #expect(throws: EnvelopeError.invalidPadding(1028)) { try EncryptedMessage.decrypt(long, authKey: W.key, direction: .clientToServer) }
        // A length that is not whole words, or longer than what follows.
        let odd = try Self.packet(plaintext: Self.plaintext(body: body, claimedLength: 10, padding: 20))
        #expect(throws: EnvelopeError.invalidLength(10)) { try EncryptedMessage.decrypt(odd, authKey: W.key, direction: .clientToServer) }
        let over = try Self.packet(plaintext: Self.plaintext(body: body, claimedLength: 4096, padding: 20))
        #expect(throws: EnvelopeError.invalidLength(4096)) { try EncryptedMessage.decrypt(over, authKey: W.key, direction: .clientToServer) }
    }
}
