import CryptoUtils
import Foundation
import MTProtoCore
import Testing

/// Types that hold key material never show it: not in `description`, not in `String(reflecting:)`, not in `dump`.
@Suite struct KeyRedactionTests {
    /// Every way a value is commonly printed.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped, "\(value)"]
    }

    /// Whether `text` shows `secret`: as a decimal array run (Swift's default) or as hex.
    static func shows(_ text: String, _ secret: [UInt8]) -> Bool {
        let decimal = secret.prefix(6).map(String.init).joined(separator: ", ")
        let hex = secret.prefix(8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        // dump lists an array's elements one per line, indented: "- 11", "- 48", …
        let dumped = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let run = secret.prefix(3).map { "- \($0)" }
        let showsRun = dumped.indices.contains { i in i + 3 <= dumped.count && Array(dumped[i..<i + 3]) == run }
        return text.contains(decimal) || text.contains(hex) || showsRun
    }

    @Test func keysSessionsAndExchangesHideTheirSecrets() throws {
        let bytes: [UInt8] = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let key = try #require(AuthKey(bytes: bytes))
        let result = AuthKeyExchangeResult(authKey: key, serverSalt: 5, timeOffset: 0)
        let client = ClientSession(authKey: key, salt: 5, timeOffset: 0)
        let server = ServerSession(authKey: key, sessionId: 1, schedule: SaltSchedule(secret: [1]), handshakeSalt: nil)
        let pair = try DHPair.generate(g: DHGroup.generator, prime: DHGroup.prime)
        for (name, value, secret) in [
            ("AuthKey", key as Any, bytes), ("AuthKeyExchangeResult", result, bytes), ("ClientSession", client, bytes),
            ("ServerSession", server, bytes), ("DHPair", pair, pair.secret),
        ] {
            for text in Self.renderings(value) {
                #expect(!Self.shows(text, secret), "\(name) shows its secret: \(text.prefix(300))")
            }
        }
        #expect(String(describing: key).contains("\(key.id)"))
    }

    @Test func anExchangeInProgressHidesItsState() throws {
        let rsa = try RSAPrivateKey.generate(bits: 2048)
        var client = AuthKeyClientExchange(publicKeys: [rsa.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [rsa])
        let first = client.start()
        guard case .send(let resPQ) = try server.receive(first, now: 1_800_000_000) else {
            Issue.record("no resPQ")
            return
        }
        _ = try client.receive(resPQ, now: 1_800_000_000)
        for value in [client as Any, server] {
            for text in Self.renderings(value) {
                #expect(!text.contains("newNonce") && !text.contains("waitingFor"), "\(text.prefix(300))")
            }
        }
    }
}
