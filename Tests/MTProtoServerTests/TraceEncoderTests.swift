import Foundation
@testable import MTProtoServer
import TelegramApi
import Testing

/// What `--trace` keeps and what it hides, on values no Telethon run in `ObservabilityTests` sends: a push's
/// `Updates`, `account.registerDevice`'s secret, `auth.checkPassword`'s SRP proof, `auth.bindTempAuthKey`'s
/// encrypted message; and a line's JSON is valid whatever the strings hold.
@Suite struct TraceEncoderTests {
    static func object(_ value: Any, name: String? = nil) throws -> [String: Any] {
        let text = TraceEncoder.encode(value, name: name).serialized()
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func aPushIsItsConstructorAndFields() throws {
        let typing = Api.Update.updateUserTyping(.init(userId: 42, action: .sendMessageTypingAction))
        let object = try Self.object(Api.Updates.updateShort(.init(update: typing, date: 1_700_000_000)))
        #expect(object["_"] as? String == "updateShort" && object["date"] as? Int == 1_700_000_000)
        let update = try #require(object["update"] as? [String: Any])
        #expect(update["_"] as? String == "updateUserTyping" && update["userId"] as? Int == 42)
        #expect((update["action"] as? [String: Any])?["_"] as? String == "sendMessageTypingAction")
    }

    @Test func secretsAreRedactedAndBytesShortened() throws {
        let secret = [UInt8](repeating: 0x5e, count: 256)
        let device = try Self.object(
            Api.functions.account.registerDevice(tokenType: 1, token: "tok_1", appSandbox: false, secret: secret, otherUids: []),
            name: "account.registerDevice")
        #expect(device["_"] as? String == "account.registerDevice" && device["token"] as? String == "tok_1")
        #expect(device["secret"] as? String == "<redacted>")
        let proof = Api.InputCheckPasswordSRP.inputCheckPasswordSRP(
            .init(srpId: 7, a: [UInt8](repeating: 0xa1, count: 256), m1: [UInt8](repeating: 0xb2, count: 32)))
        let check = try Self.object(Api.functions.auth.checkPassword(password: proof), name: "auth.checkPassword")
        #expect(check["password"] as? String == "<redacted>")
        let bind = try Self.object(
            Api.functions.auth.bindTempAuthKey(permAuthKeyId: 1, nonce: 99, expiresAt: 5, encryptedMessage: [1, 2, 3]),
            name: "auth.bindTempAuthKey")
        #expect(bind["encryptedMessage"] as? String == "<redacted>" && bind["nonce"] as? String == "<redacted>")
        #expect(bind["permAuthKeyId"] as? Int == 1)
        // Bytes that are not secret: the first 16 in hex, and the length.
        #expect(TraceEncoder.shorten([UInt8](repeating: 0xab, count: 300)) == String(repeating: "ab", count: 16) + "…(300 bytes)")
        #expect(TraceEncoder.shorten([0x0f]) == "0f(1 bytes)")
    }

    @Test func stringsAreEscaped() throws {
        let text = "a \"quoted\"\nline\t\\ \u{01} é 👋"
        let line = JSON.object([("text", .string(text)), ("n", .int(-5))]).serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["text"] as? String == text && object["n"] as? Int == -5)
    }
}
