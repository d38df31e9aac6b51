import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SecretChats
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// PyPI's telethon-secret-chat 0.2.4 on Telethon 1.45 as the other party of a secret chat with our client through
/// tg-server, both directions (`Tests/Fixtures/secretchats/telethon_secret_peer.py`). It needs a Python with both
/// packages in `TELEGRAPH_SECRET_CHAT_PYTHON` (`make deps` does not install the plugin: see Modules/Core/README.md
/// "Secret chats" for why). The test pins down what happens today: the key exchange completes both ways and the
/// plugin reads what we send, but its first message is MTProto 1.0 (SHA-1 msg_key), which the docs deprecate and our
/// client refuses as tampered, and its resend cannot bring that message back, so everything it sends after waits
/// behind the gap and is never shown.
@Suite(.serialized, .enabled(if: telethonSecretChatPython != nil)) struct SecretChatTelethonTests {
    static var python: URL? { telethonSecretChatPython }

    static let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/secretchats/telethon_secret_peer.py")

    func startPeer(_ world: AccountIntegrationTests.World, phone: String, extra: [String]) throws -> RunningProcess {
        let pem = world.root.path + "/server.pem"
        try world.server.writePublicKeyPEM(to: pem)
        let port = try #require(world.server.endpoints[2]?.port)
        let python = try #require(Self.python)
        return try ProcessRunner.start(
            python, [Self.script.path, "--port", String(port), "--pem-file", pem, "--phone", phone, "--seconds", "25"] + extra)
    }

    func lines(_ peer: RunningProcess) -> String { String(decoding: peer.output, as: UTF8.self) }

    @Test(arguments: [true, false]) func withTelethonSecretChat(ourClientStarts: Bool) async throws {
        let world = try await AccountIntegrationTests.World()
        let phone = ourClientStarts ? "9996623101" : "9996623103"
        let ours = try await AccountIntegrationTests.signUp(world, phone: ourClientStarts ? "9996623102" : "9996623104", name: "Ours")
        ours.start()
        try await AccountIntegrationTests.wait("caught up") { ours.stateManager.hasCaughtUp }
        let username = ourClientStarts ? "ours_starts" : "ours_accepts"
        _ = try await ours.network.request(Api.functions.account.updateUsername(username: username))
        let peer = try startPeer(world, phone: phone, extra: ourClientStarts ? [] : ["--start", username])
        #expect(await peer.waitForOutputOffPool(timeout: 30) { String(decoding: $0, as: UTF8.self).contains("READY") })

        let chatId: Int32
        if ourClientStarts {
            let input = try await AccountIntegrationTests.introduce(phone: phone, name: "Telethon", to: ours)
            guard case .inputPeerUser(let user) = input else { throw CancellationError() }
            chatId = try await ours.secretChats.request(userId: user.userId, accessHash: user.accessHash)
        } else {
            try await AccountIntegrationTests.wait("the plugin's request") { try !ours.secretChats.records().isEmpty }
            chatId = try #require(try ours.secretChats.records().first?.chatId)
            try await ours.secretChats.accept(chatId: chatId)
        }
        try await AccountIntegrationTests.wait("the chat is active here", explain: { self.lines(peer) }) {
            try ours.secretChats.record(chatId: chatId)?.session != nil
        }

        // What we send, the plugin reads (MTProto 2.0, layer 144 → it writes layer-73 messages back).
        try await ours.secretChats.send(text: "ping 1", chatId: chatId)
        #expect(await peer.waitForOutputOffPool(timeout: 20) { String(decoding: $0, as: UTF8.self).contains("RECEIVED ping 1") },
            "\(lines(peer))")
        #expect(await peer.waitForOutputOffPool(timeout: 20) { String(decoding: $0, as: UTF8.self).contains("SENT pong 1") })
        // What it sends is never shown: its first message (the layer notice) was MTProto 1.0, refused like a modified
        // message, and it cannot resend it, so its answer waits behind the gap.
        try await AccountIntegrationTests.wait("its answer arrived and is held", timeout: 20) {
            (try ours.secretChats.record(chatId: chatId)?.session?.held.isEmpty) == false
        }
        #expect(ours.secretChats.recentDrops.contains(.crypto(.messageKeyMismatch)))
        let shown = try AccountIntegrationTests.storedMessages(ours, with: SecretChatRecord.peerId(chatId)).filter { $0.flags.contains(.incoming) }
        #expect(shown.isEmpty)
        #expect(try ours.secretChats.record(chatId: chatId)?.session?.sequence.inRaw == 0)
        peer.send(SIGTERM)
        _ = await peer.waitOffPool(timeout: 10)
        try await world.close([ours])
    }
}

/// A Python with Telethon and telethon-secret-chat, named by `TELEGRAPH_SECRET_CHAT_PYTHON`.
let telethonSecretChatPython: URL? = {
    guard let path = ProcessInfo.processInfo.environment["TELEGRAPH_SECRET_CHAT_PYTHON"],
        FileManager.default.fileExists(atPath: path)
    else { return nil }
    return URL(fileURLWithPath: path)
}()
