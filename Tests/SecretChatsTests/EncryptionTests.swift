import CryptoUtils
import Foundation
import SecretChats
import Testing
import TestVectors

@Suite struct EncryptionTests {
    @Test func sealedMessagesOpenForTheOtherSideOnly() throws {
        let (alice, _) = try establishedPair()
        let random = seededRandom(3)
        for length in stride(from: 4, through: 400, by: 4) {
            let payload = random.bytes(length)
            let sealed = SecretChatCrypto.seal(payload, key: alice.key, sender: .originator, random: random)
            #expect((sealed.count - 24) % 16 == 0)
            let padding = sealed.count - 24 - 4 - length
            #expect(padding >= 12 && padding <= 1024)
            #expect(try SecretChatCrypto.open(sealed, keys: [alice.key], sender: .originator).payload == payload)
            // The same bytes read as the participant's (x = 8) fail: a message cannot be reflected to its sender.
            #expect(throws: SecretChatCrypto.OpenFailure.messageKeyMismatch) {
                _ = try SecretChatCrypto.open(sealed, keys: [alice.key], sender: .participant)
            }
        }
    }

    @Test func tamperedCiphertextIsRefused() throws {
        let (alice, _) = try establishedPair()
        let random = seededRandom(4)
        let sealed = SecretChatCrypto.seal(random.bytes(64), key: alice.key, sender: .participant, random: random)
        for index in [8, 23, 24, 40, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: SecretChatCrypto.OpenFailure.messageKeyMismatch) {
                _ = try SecretChatCrypto.open(tampered, keys: [alice.key], sender: .participant)
            }
        }
        var wrongFingerprint = sealed
        wrongFingerprint[0] ^= 0x80
        #expect(throws: SecretChatCrypto.OpenFailure.self) {
            _ = try SecretChatCrypto.open(wrongFingerprint, keys: [alice.key], sender: .participant)
        }
        #expect(throws: SecretChatCrypto.OpenFailure.badLength(sealed.count - 1)) {
            _ = try SecretChatCrypto.open(Array(sealed.dropLast()), keys: [alice.key], sender: .participant)
        }
        #expect(throws: SecretChatCrypto.OpenFailure.badLength(30)) {
            _ = try SecretChatCrypto.open(Array(sealed.prefix(30)), keys: [alice.key], sender: .participant)
        }
    }

    /// The docs' algorithm written independently in Python (`Tests/Fixtures/secretchats/e2e_reference.py`, hashlib
    /// and AES from `cryptography` with IGE chained by hand) opens what we seal and seals what we open.
    @Test func anIndependentImplementationAgreesByteForByte() throws {
        let (alice, _) = try establishedPair(seed: 11)
        let random = seededRandom(12)
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/secretchats/e2e_reference.py")
        for (role, x) in [(SecretChatRole.originator, "0"), (.participant, "8")] {
            let payload = random.bytes(124)
            let sealed = SecretChatCrypto.seal(payload, key: alice.key, sender: role, random: random)
            let opened = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [script.path, "open", hex(alice.key.bytes), x, hex(sealed)], timeout: 30)
            #expect(opened.succeeded, "\(opened.errorOutput)")
            #expect(opened.output.trimmingCharacters(in: .whitespacesAndNewlines) == hex(payload))

            let padding = random.bytes(12 + 16 - (4 + payload.count + 12) % 16 + 32)
            let theirs = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [script.path, "seal", hex(alice.key.bytes), x, hex(payload), hex(padding)], timeout: 30)
            #expect(theirs.succeeded, "\(theirs.errorOutput)")
            let bytes = TestVectors.hex(theirs.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(try SecretChatCrypto.open(bytes, keys: [alice.key], sender: role).payload == payload)
        }
    }
}
