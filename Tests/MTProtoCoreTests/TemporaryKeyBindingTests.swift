import CryptoUtils
import Foundation
import MTProtoCore
import TestVectors
import Testing

/// `auth.bindTempAuthKey`'s encrypted message: sealed by the client, opened and checked by the server, and opened by
/// an independent reading of core.telegram.org's description (Python, Telethon's AES-IGE).
@Suite struct TemporaryKeyBindingTests {
    static let permanent = AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })!
    static let inner = TemporaryKeyBinding.Inner(
        nonce: 0x0102_0304_0506_0708, temporaryKeyId: -0x1122_3344_5566_7788, permanentKeyId: permanent.id,
        temporarySessionId: 0x7766_5544_3322_1100, expiresAt: 1_800_086_400)
    static let messageId: Int64 = 1_800_000_000 << 32 | 0x1234_5670

    static func seeded() -> (Int) -> [UInt8] {
        var generator = SeededGenerator(seed: 7)
        return { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
    }

    @Test func sealedMessagesOpenWithThePermanentKey() throws {
        let sealed = TemporaryKeyBinding.seal(Self.inner, permanentKey: Self.permanent, messageId: Self.messageId, random: Self.seeded())
        // perm_auth_key_id, msg_key, then 32 header bytes + 40 inner bytes padded to 80.
        #expect(sealed.count == 8 + 16 + 80)
        #expect(try TemporaryKeyBinding.open(sealed, permanentKey: Self.permanent, messageId: Self.messageId) == Self.inner)
    }

    @Test func anIndependentReadingOfTheSpecOpensItToo() throws {
        let sealed = TemporaryKeyBinding.seal(Self.inner, permanentKey: Self.permanent, messageId: Self.messageId, random: Self.seeded())
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/open_bind_message.py")
        let result = try ProcessRunner.run(
            ProcessRunner.venvPython, [script.path, hex(Self.permanent.bytes), hex(sealed)], timeout: 60)
        try #require(result.status == 0, "\(result.stderr)")
        let fields = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(fields["key_id_matches"] as? Bool == true)
        #expect(fields["msg_key_matches"] as? Bool == true)
        #expect(fields["padding"] as? Int == 8)
        #expect((fields["msg_id"] as? NSNumber)?.int64Value == Self.messageId)
        #expect(fields["seq_no"] as? Int == 0)
        #expect(fields["msg_len"] as? Int == 40)
        #expect(fields["constructor"] as? String == "75a3f765")
        #expect((fields["nonce"] as? NSNumber)?.int64Value == Self.inner.nonce)
        #expect((fields["temp_auth_key_id"] as? NSNumber)?.int64Value == Self.inner.temporaryKeyId)
        #expect((fields["perm_auth_key_id"] as? NSNumber)?.int64Value == Self.inner.permanentKeyId)
        #expect((fields["temp_session_id"] as? NSNumber)?.int64Value == Self.inner.temporarySessionId)
        #expect((fields["expires_at"] as? NSNumber)?.int32Value == Self.inner.expiresAt)
    }

    @Test func theServerRefusesWhatDoesNotOpenOrDoesNotMatch() throws {
        let sealed = TemporaryKeyBinding.seal(Self.inner, permanentKey: Self.permanent, messageId: Self.messageId)
        let other = AuthKey(bytes: [UInt8](repeating: 9, count: 256))!
        #expect(throws: TemporaryKeyBinding.Failure.wrongKey) {
            try TemporaryKeyBinding.open(sealed, permanentKey: other, messageId: Self.messageId)
        }
        #expect(throws: TemporaryKeyBinding.Failure.messageIdMismatch) {
            try TemporaryKeyBinding.open(sealed, permanentKey: Self.permanent, messageId: Self.messageId + 4)
        }
        // Any flipped byte of msg_key or of the ciphertext breaks the SHA-1 check.
        for index in [8, 23, 24, 40, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x20
            #expect(throws: TemporaryKeyBinding.Failure.messageKeyMismatch) {
                try TemporaryKeyBinding.open(tampered, permanentKey: Self.permanent, messageId: Self.messageId)
            }
        }
        for length in [0, 24, 30, TemporaryKeyBinding.maximumLength + 16] {
            let bytes = Array((sealed + [UInt8](repeating: 0, count: 200)).prefix(length))
            #expect(throws: TemporaryKeyBinding.Failure.malformedLength(length)) {
                try TemporaryKeyBinding.open(bytes, permanentKey: Self.permanent, messageId: Self.messageId)
            }
        }
    }

    @Test func aRequestCanNameTheMsgIdItIsSentWith() throws {
        var session = ClientSession(authKey: Self.permanent, salt: 1, timeOffset: 0)
        var named: Int64 = 0
        let (_, packets) = try session.send(now: 1_800_000_000.25) { id in
            named = id
            return [1, 2, 3, 4]
        }
        let packet = try #require(packets.first)
        let message = try EncryptedMessage.decrypt(packet, authKey: Self.permanent, direction: .clientToServer)
        #expect(message.messageId == named)
        #expect(message.body == [1, 2, 3, 4])
    }
}
