import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import TLRuntime
import TestVectors
import Testing

/// The signed `help.configSimple` a server publishes for clients that reach none of its addresses: sealed with the
/// private key, opened with the public one, refused when altered or signed by another key, and opened the same by an
/// independent reading of TDLib's `decode_config` (Python: `rsa`, `pyaes`, `hashlib`).
@Suite struct SimpleConfigEnvelopeTests {
    static let key = try! RSAPrivateKey.generate(bits: 2048)
    static let config = MTProto.help.ConfigSimple.configSimple(
        .init(
            date: 1_800_000_000, expires: 1_800_086_400,
            rules: [1, 2, 3].map { dc in
                .accessPointRule(
                    .init(
                        phonePrefixRules: "", dcId: dc,
                        ips: [.ipPort(.init(ipv4: IPv4Number.number("127.0.0.1")!, port: 10442 + dc))]))
            }))

    @Test func aSealedConfigOpensWithThePublicKey() throws {
        let text = try SimpleConfigEnvelope.seal(Self.config, key: Self.key)
        #expect(text.count == 344)
        let opened = try SimpleConfigEnvelope.open(text, publicKey: Self.key.publicKey)
        #expect(opened.serialized() == Self.config.serialized())
        // Whitespace and line breaks, as TXT records split it, are dropped.
        let folded = text.enumerated().map { $0.offset % 60 == 59 ? "\($0.element)\n" : "\($0.element)" }.joined()
        #expect(
            try SimpleConfigEnvelope.open("  " + folded, publicKey: Self.key.publicKey).serialized()
                == Self.config.serialized())
    }

    @Test func alteredOrForeignBlobsAreRefused() throws {
        let text = try SimpleConfigEnvelope.seal(Self.config, key: Self.key)
        var bytes = Array(Data(base64Encoded: text)!)
        bytes[100] ^= 0x01
        let altered = Data(bytes).base64EncodedString()
        #expect(throws: SimpleConfigEnvelope.OpenError.self) {
            try SimpleConfigEnvelope.open(altered, publicKey: Self.key.publicKey)
        }
        let other = try RSAPrivateKey.generate(bits: 2048)
        #expect(throws: SimpleConfigEnvelope.OpenError.self) {
            try SimpleConfigEnvelope.open(text, publicKey: other.publicKey)
        }
        #expect(throws: SimpleConfigEnvelope.OpenError.length(4)) {
            try SimpleConfigEnvelope.open("abcd", publicKey: Self.key.publicKey)
        }
        #expect(throws: SimpleConfigEnvelope.OpenError.outOfRange) {
            try SimpleConfigEnvelope.open(
                Data(repeating: 0xff, count: 256).base64EncodedString(), publicKey: Self.key.publicKey)
        }
    }

    @Test func tooManyAddressesAreRefusedWhenSealing() {
        let many = MTProto.help.ConfigSimple.configSimple(
            .init(
                date: 0, expires: 1,
                rules: [
                    .accessPointRule(
                        .init(phonePrefixRules: "", dcId: 2, ips: (0..<20).map { .ipPort(.init(ipv4: $0, port: 1)) }))
                ]))
        #expect(throws: CryptoError.self) { try SimpleConfigEnvelope.seal(many, key: Self.key) }
    }

    @Test func addressesAreOneIntWithTheFirstOctetHighest() {
        #expect(IPv4Number.number("127.0.0.1") == 0x7f00_0001)
        #expect(IPv4Number.number("149.154.167.51").map(IPv4Number.text) == "149.154.167.51")
        #expect(
            IPv4Number.number("1.2.3") == nil && IPv4Number.number("1.2.3.256") == nil
                && IPv4Number.number("a.b.c.d") == nil)
    }

    @Test func anIndependentReadingOfTDLibsDecoderOpensItToo() async throws {
        let text = try SimpleConfigEnvelope.seal(Self.config, key: Self.key)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-simple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pem = folder.appendingPathComponent("key.pem"), blob = folder.appendingPathComponent("blob.txt")
        try Self.key.publicKeyPEM().write(to: pem, atomically: true, encoding: .utf8)
        try text.write(to: blob, atomically: true, encoding: .utf8)
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/open_config_simple.py")
        let result = try await ProcessRunner.runOffPool(
            ProcessRunner.venvPython, [script.path, pem.path, blob.path], timeout: 60)
        try #require(result.succeeded, "\(result.errorOutput)")
        let fields = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(fields["hash_ok"] as? Bool == true)
        #expect(fields["constructor"] as? String == "5a592a6c")
        #expect(fields["length"] as? Int == fields["end"] as? Int, "the length field ends where the TL ends")
        #expect(fields["date"] as? Int == 1_800_000_000 && fields["expires"] as? Int == 1_800_086_400)
        let rules = try #require(fields["rules"] as? [[String: Any]])
        #expect(rules.map { $0["dc_id"] as? Int } == [1, 2, 3])
        let ips = rules.compactMap { ($0["ips"] as? [[String: Any]])?.first }
        #expect(ips.map { $0["ip"] as? String } == ["127.0.0.1", "127.0.0.1", "127.0.0.1"])
        #expect(ips.map { $0["port"] as? Int } == [10443, 10444, 10445])
    }
}
