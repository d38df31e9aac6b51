import CryptoUtils
import TestVectors
import Testing

/// Printing an RSA private key, its CRT numbers or anything that holds them shows no private number.
@Suite struct RSARedactionTests {
    static let key = try! RSAPrivateKey.generate(bits: 1024)

    static var secrets: [(name: String, bytes: [UInt8])] {
        let crt = key.crtParameters!
        return [
            ("d", key.privateExponentBytes), ("p", crt.p), ("q", crt.q), ("dP", crt.dP), ("dQ", crt.dQ),
            ("qInv", crt.qInv),
        ]
    }

    @Test func privateKeyPrintsOnlyItsPublicHalf() throws {
        struct Holder { let key: RSAPrivateKey }
        let holders: [(String, Any)] = [
            ("key", Self.key), ("without CRT", Self.key.withoutCRT), ("optional", Optional(Self.key) as Any),
            ("array", [Self.key]), ("holder", Holder(key: Self.key)),
        ]
        for (what, value) in holders {
            for (name, secret) in Self.secrets {
                #expect(Redaction.leaks(of: secret, in: value).isEmpty, "\(what) shows \(name)")
            }
        }
        let text = String(describing: Self.key)
        #expect(text.hasPrefix("RSAPrivateKey(1024-bit, fingerprint "))
        #expect(text.contains(String(Self.key.publicKey.fingerprint, radix: 16)))
        // The public half stays inspectable.
        #expect(Redaction.leaks(of: Self.key.publicKey.modulus, in: Self.key).count > 0)
    }

    @Test func crtParametersPrintNothing() throws {
        let crt = try #require(Self.key.crtParameters)
        for (name, secret) in Self.secrets {
            #expect(Redaction.leaks(of: secret, in: crt).isEmpty, "CRTParameters shows \(name)")
        }
        #expect(String(describing: crt) == "CRTParameters(redacted)")
    }
}
