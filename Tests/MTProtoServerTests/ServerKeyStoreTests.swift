import CryptoUtils
import Foundation
import MTProtoServer
import Testing

/// The server's RSA key file: the CRT format it writes now, and the older three-line format it still reads.
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
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("rsa-key").path)[
            .posixPermissions] as? Int
        #expect(mode == 0o600)
        let reopened = try ServerKeyStore(directory: directory)
        #expect(reopened.rsaKey.usesCRT)
        #expect(reopened.rsaKey.publicKey == created.rsaKey.publicKey)
        #expect(reopened.rsaKey.crtParameters == created.rsaKey.crtParameters)
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
        let oldText = [key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes].map(Self.hex)
            .joined(separator: "\n") + "\n"
        try oldText.write(to: old.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        let crt = try #require(key.crtParameters)
        let newText = [
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
        let text = [
            key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes, crt.p, crt.q, crt.dP, crt.dQ,
            crt.qInv,
        ].map(Self.hex).joined(separator: "\n") + "\n"
        try text.write(to: directory.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        #expect(throws: ServerError.self) { try ServerKeyStore(directory: directory) }
        try "00ff\n03\n".write(to: directory.appendingPathComponent("rsa-key"), atomically: true, encoding: .utf8)
        #expect(throws: ServerError.self) { try ServerKeyStore(directory: directory) }
    }
}
