import CryptoUtils
import MTProtoCore
import Testing

/// The encrypted push envelope (core.telegram.org "Handling PUSH-notifications"): round trips, and every way a
/// payload can be wrong is refused with its own error, never a trap.
@Suite struct PushPayloadCryptoTests {
    let key = NotificationKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })!

    @Test func theKeyIdIsTheLastEightBytesOfSHA1() {
        #expect(key.id == Array(Digest.sha1(key.bytes)[12..<20]))
        #expect(key.idHex.count == 16)
        #expect(!"\(key)".contains(NotificationKey.hex(Array(key.bytes[0..<8]))))
        #expect(NotificationKey(bytes: [1, 2, 3]) == nil)
    }

    @Test func roundTripsEveryLengthAndFollowsMTProtoKeyDerivation() throws {
        for length in [0, 1, 11, 12, 15, 16, 17, 100, 4000] {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
            let sealed = PushPayloadCrypto.encrypt(payload, key: key)
            #expect(Array(sealed[0..<8]) == key.id)
            #expect((sealed.count - 24) % 16 == 0)
            #expect(try PushPayloadCrypto.decrypt(sealed, key: key) == payload)
            // msg_key and the AES key come from MTProto 2.0's derivation at x = 8, over the plaintext with padding.
            let messageKey = Array(sealed[8..<24])
            let (aesKey, iv) = MTProtoKeyDerivation.aesKeyIV(authKey: key.bytes, messageKey: messageKey, direction: .serverToClient)
            let plain = try AESIGE.decrypt(Array(sealed[24...]), key: aesKey, iv: iv)
            #expect(MTProtoKeyDerivation.messageKey(authKey: key.bytes, paddedPlaintext: plain, direction: .serverToClient) == messageKey)
            #expect(Array(plain[4..<(4 + length)]) == payload)
        }
    }

    @Test func tamperingTruncationAndOtherKeysAreRefused() throws {
        let sealed = PushPayloadCrypto.encrypt(Array("{\"loc_key\":\"MESSAGE_TEXT\"}".utf8), key: key)
        for index in [8, 23, 24, sealed.count - 1] {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: PushPayloadError.messageKeyMismatch) { try PushPayloadCrypto.decrypt(changed, key: key) }
        }
        var otherId = sealed
        otherId[0] ^= 1
        #expect(throws: PushPayloadError.keyIdMismatch) { try PushPayloadCrypto.decrypt(otherId, key: key) }
        for cut in [0, 7, 24, 39, sealed.count - 1] {
            #expect(throws: PushPayloadError.truncated(cut)) { try PushPayloadCrypto.decrypt(Array(sealed[0..<cut]), key: key) }
        }
        let other = NotificationKey.generate()
        var forged = sealed
        forged.replaceSubrange(0..<8, with: other.id)
        #expect(throws: PushPayloadError.messageKeyMismatch) { try PushPayloadCrypto.decrypt(forged, key: other) }
    }

    @Test func randomBytesNeverTrap() {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 54) % 200
            var bytes = (0..<length).map { i in UInt8(truncatingIfNeeded: (state >> UInt64(i % 56)) &+ UInt64(i)) }
            if bytes.count >= 8 { bytes.replaceSubrange(0..<8, with: key.id) }
            #expect(throws: PushPayloadError.self) { try PushPayloadCrypto.decrypt(bytes, key: key) }
        }
    }
}
