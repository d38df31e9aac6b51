import CryptoUtils
import SecretChats
import TestVectors
import Testing

@Suite struct FileCryptoTests {
    @Test func aFileGoesEncryptedAndComesBackWithItsFingerprintChecked() throws {
        let random = seededRandom(201)
        let file = SecretChatFileKey(random: random)
        let content = random.bytes(1000)
        let encrypted = file.encrypt(content, random: random)
        #expect(encrypted.count == 1008 && encrypted.prefix(16) != content.prefix(16))
        #expect(try file.decrypt(encrypted, size: 1000, serverFingerprint: file.fingerprint) == content)
        // The fingerprint: md5(key ‖ iv), first int32 XOR second, little-endian.
        let digest = Digest.md5(file.key + file.iv)
        let a = Int32(bitPattern: UInt32(digest[0]) | UInt32(digest[1]) << 8 | UInt32(digest[2]) << 16 | UInt32(digest[3]) << 24)
        let b = Int32(bitPattern: UInt32(digest[4]) | UInt32(digest[5]) << 8 | UInt32(digest[6]) << 16 | UInt32(digest[7]) << 24)
        #expect(file.fingerprint == a ^ b)
        #expect(throws: SecretChatFileKey.Failure.fingerprintMismatch) {
            _ = try file.decrypt(encrypted, size: 1000, serverFingerprint: file.fingerprint ^ 1)
        }
        #expect(throws: SecretChatFileKey.Failure.badLength(1007)) {
            _ = try file.decrypt(Array(encrypted.dropLast()), size: 1000, serverFingerprint: file.fingerprint)
        }
        #expect(SecretChatFileKey(key: [1], iv: file.iv) == nil)
        #expect(!"\(file)".contains(hex(file.key)) && !"\(file)".contains(hex(file.iv)))
    }
}
