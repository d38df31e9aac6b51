import CryptoUtils
import Foundation
import MTProtoCore
import MTProtoServer
import Testing

/// The server's key files: the RSA key's CRT format and the older three-line format, owner-only modes, links,
/// unused and temporary auth keys, and ids that are never given twice.
@Suite struct ServerKeyStoreTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keystore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func keyLines(_ directory: URL) throws -> [String] {
        try String(contentsOf: directory.appendingPathComponent("rsa-key"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    @Test func newStoreWritesCRTNumbersAndReadsThemBack() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = try ServerKeyStore(directory: directory)
        #expect(created.rsaKey.usesCRT)
        let lines = try Self.keyLines(directory)
        #expect(lines.count == 8)
        let mode =
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("rsa-key").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)
        let reopened = try ServerKeyStore(directory: directory)
        #expect(reopened.rsaKey.usesCRT)
        #expect(reopened.rsaKey.publicKey == created.rsaKey.publicKey)
        #expect(reopened.rsaKey.crtParameters == created.rsaKey.crtParameters)
    }

    /// A folder without a key gets the one `newRSAKey` makes, written to its key file; a folder with a key keeps it
    /// and does not ask for one (test backends share one key per process this way).
    @Test func aGivenKeyIsWrittenToANewFolderOnly() throws {
        let given = try RSAPrivateKey.generate(bits: 2048)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = try ServerKeyStore(directory: directory, newRSAKey: { given })
        #expect(created.rsaKey.publicKey == given.publicKey)
        #expect(try Self.keyLines(directory).count == 8)
        var asked = 0
        let reopened = try ServerKeyStore(
            directory: directory,
            newRSAKey: {
                asked += 1
                return try RSAPrivateKey.generate(bits: 2048)
            })
        #expect(reopened.rsaKey.publicKey == given.publicKey)
        #expect(reopened.rsaKey.crtParameters == given.crtParameters)
        #expect(asked == 0)
    }

    /// A key file written before the CRT numbers (n, e, d on three lines) loads, decrypts as before without CRT,
    /// and gives the same public key description (`--print-public-key`) as the same key in the new format.
    @Test func oldThreeLineKeyFileStillLoads() throws {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let old = try Self.temporaryDirectory()
        let new = try Self.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: old)
            try? FileManager.default.removeItem(at: new)
        }
        let oldText =
            [key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes].map(Self.hex)
            .joined(separator: "\n") + "\n"
        try oldText.write(to: old.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        let crt = try #require(key.crtParameters)
        let newText =
            [
                key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes, crt.p, crt.q, crt.dP, crt.dQ,
                crt.qInv,
            ].map(Self.hex).joined(separator: "\n") + "\n"
        try newText.write(to: new.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)

        let oldStore = try ServerKeyStore(directory: old)
        let newStore = try ServerKeyStore(directory: new)
        #expect(!oldStore.rsaKey.usesCRT && newStore.rsaKey.usesCRT)
        #expect(oldStore.rsaKey.publicKey == key.publicKey)
        #expect(try oldStore.publicKeyDescription() == newStore.publicKeyDescription())
        #expect(try oldStore.publicKeyDescription().hasPrefix("-----BEGIN RSA PUBLIC KEY-----\n"))
        // The old file is left as it was.
        #expect(try String(contentsOf: old.appendingPathComponent("rsa-key"), encoding: .utf8) == oldText)
        var block = [UInt8](repeating: 0x5a, count: 256)
        block[0] = 0
        let encrypted = try key.publicKey.encryptRaw(block)
        #expect(try oldStore.rsaKey.decryptRaw(encrypted) == block)
        #expect(try newStore.rsaKey.decryptRaw(encrypted) == block)
    }

    /// CRT numbers that do not belong to the key are refused when the store opens.
    @Test func mismatchedCRTNumbersAreRefused() throws {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let other = try RSAPrivateKey.generate(bits: 2048)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let crt = try #require(other.crtParameters)
        let text =
            [
                key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes, crt.p, crt.q, crt.dP, crt.dQ,
                crt.qInv,
            ].map(Self.hex).joined(separator: "\n") + "\n"
        try text.write(to: directory.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        #expect(throws: ServerError.self) { try ServerKeyStore(directory: directory) }
        try "00ff\n03\n".write(to: directory.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        #expect(throws: ServerError.self) { try ServerKeyStore(directory: directory) }
    }

    static func mode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    static func key(_ seed: UInt8) -> AuthKeyExchangeResult {
        AuthKeyExchangeResult(
            authKey: AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: Int($0) &* 13 &+ Int(seed)) })!,
            serverSalt: 1, timeOffset: 0)
    }

    /// Every folder is 0700 and every secret 0600 from the moment it exists, whatever the umask.
    @Test func foldersAndKeyFilesAreOwnerOnly() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let store = try ServerKeyStore(directory: directory)
        let auth = directory.appendingPathComponent("auth-keys")
        #expect(try Self.mode(directory) == 0o700)
        #expect(try Self.mode(auth) == 0o700)
        #expect(try Self.mode(auth.appendingPathComponent("unconfirmed")) == 0o700)
        #expect(try Self.mode(directory.appendingPathComponent("rsa-key")) == 0o600)
        let key = Self.key(1)
        try store.add(key)
        let name = String(UInt64(bitPattern: key.authKey.id), radix: 16)
        #expect(try Self.mode(auth.appendingPathComponent("unconfirmed/\(name)")) == 0o600)
        store.confirm(key.authKey.id)
        #expect(try Self.mode(auth.appendingPathComponent(name)) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: auth.appendingPathComponent("unconfirmed/\(name)").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: auth.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    /// A key file planted as a symbolic link is refused, not followed to whatever it names.
    @Test func aLinkInPlaceOfTheRSAKeyIsRefused() throws {
        let elsewhere = try Self.temporaryDirectory()
        let directory = try Self.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: elsewhere)
            try? FileManager.default.removeItem(at: directory)
        }
        _ = try ServerKeyStore(directory: elsewhere)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("rsa-key"),
            withDestinationURL: elsewhere.appendingPathComponent("rsa-key"))
        #expect(throws: (any Error).self) { try ServerKeyStore(directory: directory) }
    }

    /// An auth_key_id in use is never stored a second time, and the stored key is left as it was.
    @Test func aKeyIdIsNeverGivenTwice() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ServerKeyStore(directory: directory)
        let key = Self.key(2)
        try store.add(key)
        #expect(store.isKeyIdTaken(key.authKey.id))
        #expect(throws: ServerError.authKeyIdTaken(key.authKey.id)) { try store.add(key) }
        #expect(store.authKey(id: key.authKey.id) == key.authKey)
        // A restart reloads it, still unused.
        let reopened = try ServerKeyStore(directory: directory)
        #expect(reopened.authKey(id: key.authKey.id) == key.authKey)
        #expect(reopened.unconfirmedKeyCount == 1)
    }

    /// Keys never used are deleted after their lifetime (and past the cap, oldest first); used keys stay.
    @Test func unusedKeysExpireAndAreCapped() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ServerKeyStore(directory: directory, unconfirmedLifetime: 600, maximumUnconfirmedKeys: 3)
        for seed in 10..<15 { try store.add(Self.key(UInt8(seed)), now: 1000 + Double(seed)) }
        #expect(store.unconfirmedKeyCount == 3)
        #expect(store.authKey(id: Self.key(10).authKey.id) == nil, "the oldest unused key made room")
        store.confirm(Self.key(14).authKey.id)
        let swept = store.sweep(now: 1000 + 14 + 600)
        #expect(swept.unconfirmed == 2)
        #expect(store.authKeyCount == 1 && store.authKey(id: Self.key(14).authKey.id) != nil)
        let unconfirmedFolder = directory.appendingPathComponent("auth-keys/unconfirmed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: unconfirmedFolder.path).isEmpty)
    }

    /// Temporary keys live in memory until they expire, at most `maximumTemporaryKeys` of them.
    @Test func temporaryKeysExpireAndAreNeverWritten() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ServerKeyStore(directory: directory, maximumTemporaryKeys: 2)
        for seed in 20..<23 {
            let base = Self.key(UInt8(seed))
            try store.add(
                AuthKeyExchangeResult(
                    authKey: base.authKey, serverSalt: 1, timeOffset: 0, expiresAt: 2000 + Double(seed)), now: 1000)
        }
        #expect(store.temporaryKeyCount == 2)
        #expect(store.authKey(id: Self.key(20).authKey.id, now: 1500) == nil, "the key expiring soonest made room")
        #expect(store.authKey(id: Self.key(21).authKey.id, now: 1500) != nil)
        #expect(store.authKey(id: Self.key(21).authKey.id, now: 2021) == nil, "expired")
        #expect(store.sweep(now: 2021.5).temporary == 1)
        #expect(store.temporaryKeyCount == 1)
        #expect(store.authKeyCount == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("auth-keys").path) == [
                "unconfirmed"
            ])
    }
}
