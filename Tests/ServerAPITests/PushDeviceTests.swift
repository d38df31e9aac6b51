import Foundation
import MTProtoCore
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// `account.registerDevice` with a 256-byte secret, and the push files tg-server's `--push-dir` writes: one file per
/// push in `DIR/<token>/`, `{"p": base64url}` around the payload encrypted with the secret, holding Telegram's fields.
@Suite struct PushDeviceTests {
    typealias Harness = ServerBackendTests.Harness

    static func files(_ folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A `Bool` answer.
    static func bool(_ response: RPCResponse) throws -> Bool {
        guard case .result(let bytes) = response else { throw ServerBackendTests.Failure(response: response) }
        var reader = TLReader(bytes)
        return try reader.readBool()
    }

    static func open(_ file: URL, key: NotificationKey) throws -> [String: Any] {
        let outer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
        #expect(outer.keys.sorted() == ["p"])
        var text = try #require(outer["p"])
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"), "base64url without padding")
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let sealed = try #require(Data(base64Encoded: text))
        let json = try PushPayloadCrypto.decrypt(Array(sealed), key: key)
        return try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    }

    @Test func pushesForARegisteredDeviceAreWrittenEncryptedWithItsSecret() async throws {
        let harness = try Harness(pushes: true)
        let alice = try await harness.signUp("9996620001", name: "Alice", key: 1, dc: 2)
        let bob = try await harness.signUp("9996620002", name: "Bob", key: 2, dc: 2)
        let key = NotificationKey.generate()
        let token = String(repeating: "ab", count: 32)
        let register = Api.functions.account.registerDevice(
            noMuted: false, tokenType: 1, token: token, appSandbox: false, secret: key.bytes, otherUids: [])
        #expect(try Self.bool(await harness.call(register, key: 2, dc: 2)))
        // A token that cannot name a folder, or a secret that is not 256 bytes, is refused.
        var bad = register
        bad.token = "../x"
        #expect(ServerBackendTests.error(await harness.call(bad, key: 2, dc: 2)) == "TOKEN_INVALID")
        bad = register
        bad.secret = Array(key.bytes[0..<255])
        #expect(ServerBackendTests.error(await harness.call(bad, key: 2, dc: 2)) == "SECRET_INVALID")

        let toBob = Api.InputPeer.inputPeerUser(.init(userId: bob.id, accessHash: bob.accessHash))
        let texts = ["Tối nay ăn phở không?", "7 giờ nhé", "ok"]
        for (index, text) in texts.enumerated() {
            _ = try await harness.result(
                Api.functions.messages.sendMessage(peer: toBob, message: text, randomId: Int64(index + 1)), as: Api.Updates.self, key: 1, dc: 2)
        }
        let folder = harness.folder.appendingPathComponent("pushes/\(token)")
        let files = Self.files(folder)
        #expect(files.map(\.lastPathComponent) == (1...3).map { String(format: "%d-%010d.json", bob.id, $0) })
        for (index, file) in files.enumerated() {
            let payload = try Self.open(file, key: key)
            #expect(payload["loc_key"] as? String == "MESSAGE_TEXT")
            #expect(payload["loc_args"] as? [String] == ["Alice", texts[index]])
            let custom = try #require(payload["custom"] as? [String: String])
            #expect(custom["msg_id"] == String(index + 1) && custom["from_id"] == String(alice.id) && custom["chat_id"] == nil)
            #expect(custom["date"] == "1800000000")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
        }
        // The sender's own copy makes no push; Bob's reply makes none either (Alice registered nothing).
        let toAlice = Api.InputPeer.inputPeerUser(.init(userId: alice.id, accessHash: alice.accessHash))
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toAlice, message: "ừ", randomId: 9), as: Api.Updates.self, key: 2, dc: 2)
        #expect(Self.files(folder).count == 3)

        // Unregistered: no more pushes.
        let unregister = Api.functions.account.unregisterDevice(tokenType: 1, token: token, otherUids: [])
        #expect(try Self.bool(await harness.call(unregister, key: 2, dc: 2)))
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "còn đó không?", randomId: 4), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.files(folder).count == 3)

        // Registered again, then logged out: the key's devices go with it.
        #expect(try Self.bool(await harness.call(register, key: 2, dc: 2)))
        _ = await harness.call(Api.functions.auth.logOut(), key: 2, dc: 2)
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "alo", randomId: 5), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.files(folder).count == 3)
    }

    @Test func accountsSharingAnInstallationsTokenEachGetTheirPushes() async throws {
        let harness = try Harness(pushes: true)
        let alice = try await harness.signUp("9996620021", name: "Alice", key: 1, dc: 2)
        let bob = try await harness.signUp("9996620022", name: "Bob", key: 2, dc: 2)
        let carol = try await harness.signUp("9996620023", name: "Carol", key: 3, dc: 2)
        let bobKey = NotificationKey.generate()
        let carolKey = NotificationKey.generate()
        for (key, secret) in [(Int64(2), bobKey), (Int64(3), carolKey)] {
            let register = Api.functions.account.registerDevice(
                noMuted: false, tokenType: 1, token: "one-phone", appSandbox: false, secret: secret.bytes, otherUids: [])
            #expect(try Self.bool(await harness.call(register, key: key, dc: 2)))
        }
        for (index, user) in [bob, carol].enumerated() {
            _ = try await harness.result(
                Api.functions.messages.sendMessage(
                    peer: .inputPeerUser(.init(userId: user.id, accessHash: user.accessHash)), message: "hi \(index)", randomId: Int64(index + 1)),
                as: Api.Updates.self, key: 1, dc: 2)
        }
        let files = Self.files(harness.folder.appendingPathComponent("pushes/one-phone"))
        #expect(files.map(\.lastPathComponent) == [String(format: "%d-%010d.json", bob.id, 1), String(format: "%d-%010d.json", carol.id, 1)].sorted())
        for file in files {
            let secret = file.lastPathComponent.hasPrefix("\(bob.id)-") ? bobKey : carolKey
            let payload = try Self.open(file, key: secret)
            #expect((payload["custom"] as? [String: String])?["from_id"] == String(alice.id))
        }
    }

    @Test func groupPushesNameTheChat() async throws {
        let harness = try Harness(pushes: true)
        let alice = try await harness.signUp("9996620011", name: "Alice", key: 1, dc: 2)
        let bob = try await harness.signUp("9996620012", name: "Bob", key: 2, dc: 2)
        let key = NotificationKey.generate()
        let register = Api.functions.account.registerDevice(
            noMuted: false, tokenType: 1, token: "bob-device", appSandbox: false, secret: key.bytes, otherUids: [])
        #expect(try Self.bool(await harness.call(register, key: 2, dc: 2)))
        let created = try await harness.result(
            Api.functions.messages.createChat(users: [.inputUser(.init(userId: bob.id, accessHash: bob.accessHash))], title: "Phở club"),
            as: Api.messages.InvitedUsers.self, key: 1, dc: 2)
        guard case .invitedUsers(let invited) = created, case .updates(let updates) = invited.updates,
            case .chat(let chat)? = updates.chats.first
        else { Issue.record("no chat in \(created)"); return }
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: .inputPeerChat(.init(chatId: chat.id)), message: "ăn thôi", randomId: 1),
            as: Api.Updates.self, key: 1, dc: 2)
        // The service message of the chat's creation makes no push; the text does.
        let files = Self.files(harness.folder.appendingPathComponent("pushes/bob-device"))
        #expect(files.count == 1)
        let payload = try Self.open(try #require(files.first), key: key)
        #expect(payload["loc_key"] as? String == "CHAT_MESSAGE_TEXT")
        #expect(payload["loc_args"] as? [String] == ["Alice", "Phở club", "ăn thôi"])
        let custom = try #require(payload["custom"] as? [String: String])
        #expect(custom["chat_id"] == String(chat.id) && custom["from_id"] == String(alice.id))
    }
}
