import AccountNetworking
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

/// PyPI's telethon-secret-chat 0.2.4 on Telethon 1.45 (both in `make deps`' .venv) as the other party of a secret
/// chat with our client through tg-server, both directions (`Tests/Fixtures/secretchats/telethon_secret_peer.py`): a
/// client written by no one here. Its first message (the layer notice) is MTProto 1.0, since it does not know our
/// layer yet; it is taken because the plugin has shown no layer ≥ 73 and no 2.0 message before it
/// (`SecretChatSession.acceptsMTProto1`), and everything after it is 2.0. Messages flow both ways and are shown: our
/// pings in its output, its pongs in our Postbox, in order, nothing held or dropped.
@Suite(.serialized) struct SecretChatTelethonTests {
    static let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/secretchats/telethon_secret_peer.py")

    func startPeer(_ world: AccountIntegrationTests.World, phone: String, extra: [String]) throws -> RunningProcess {
        let pem = world.root.path + "/server.pem"
        let server = try world.server
        try server.writePublicKeyPEM(to: pem)
        let port = try #require(server.endpoints[2]?.port)
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        // The peer exits by itself after --seconds (a bound if the test dies); the test ends it sooner.
        let arguments = [
            Self.script.path, "--port", String(port), "--pem-file", pem, "--phone", phone, "--seconds", "300",
        ]
        return try ProcessRunner.start(python, arguments + extra)
    }

    func lines(_ peer: RunningProcess) -> String { String(decoding: peer.output, as: UTF8.self) }

    func incomingTexts(_ ours: Account, chatId: Int32) throws -> [String] {
        try AccountIntegrationTests.storedMessages(ours, with: SecretChatRecord.peerId(chatId))
            .filter { $0.flags.contains(.incoming) }.sorted { $0.id.id < $1.id.id }.map(\.text)
    }

    // `chatty`: the plugin answers every message with a layer notice, as it does in any run slower than 15 s (it
    // counts the chat's age from its own import). Both failures this test once had came from there: its first
    // message, sent as it accepted, reached us in the same difference as the acceptance but before it, and was lost
    // (now kept until the key is known); and each of its notices behind the gap that left made us ask for a resend
    // again, which it answered with another notice (now only what is neither held nor asked for is asked for).
    @Test(arguments: [true, false], [false, true])
    func withTelethonSecretChat(ourClientStarts: Bool, chatty: Bool) async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        // Each case its own two accounts: 9996623101/02, …/03/04, …/05/06, …/07/08.
        let first = 9_996_623_101 + 2 * ((ourClientStarts ? 0 : 1) + (chatty ? 2 : 0))
        let phones = (String(first), String(first + 1))
        let phone = phones.0
        let ours = try await AccountIntegrationTests.signUp(world, phone: phones.1, name: "Ours")
        ours.start()
        try await AccountIntegrationTests.wait("caught up", timeout: 60) { ours.stateManager.hasCaughtUp }
        let username = (ourClientStarts ? "ours_starts" : "ours_accepts") + (chatty ? "_chatty" : "")
        _ = try await ours.network.request(Api.functions.account.updateUsername(username: username))
        let peer = try startPeer(world, phone: phone, extra: (ourClientStarts ? [] : ["--start", username]) + (chatty ? ["--chatty"] : []))
        defer { peer.send(SIGTERM) }
        try #require(
            await peer.waitForOutputOffPool(timeout: 90) { String(decoding: $0, as: UTF8.self).contains("READY") },
            "\(lines(peer))")

        let chatId: Int32
        if ourClientStarts {
            let input = try await AccountIntegrationTests.introduce(phone: phone, name: "Telethon", to: ours)
            guard case .inputPeerUser(let user) = input else { throw CancellationError() }
            chatId = try await ours.secretChats.request(userId: user.userId, accessHash: user.accessHash)
        } else {
            try await AccountIntegrationTests.wait("the plugin's request", timeout: 60, explain: { self.lines(peer) }) {
                try !ours.secretChats.records().isEmpty
            }
            chatId = try #require(try ours.secretChats.records().first?.chatId)
            try await ours.secretChats.accept(chatId: chatId)
        }
        try await AccountIntegrationTests.wait("the chat is active here", timeout: 60, explain: { self.lines(peer) }) {
            try ours.secretChats.record(chatId: chatId)?.session != nil
        }

        // Both ways, twice: we send (MTProto 2.0, our layer 144), the plugin shows it and answers (2.0 once it has
        // our layer), and its answer is shown here, after its 1.0 layer notice was taken.
        for round in 1...2 {
            try await ours.secretChats.send(text: "ping \(round)", chatId: chatId)
            #expect(
                await peer.waitForOutputOffPool(timeout: 60) {
                    String(decoding: $0, as: UTF8.self).contains("RECEIVED ping \(round)\n")
                }, "\(lines(peer))")
            try await AccountIntegrationTests.wait(
                "pong \(round) shown here", timeout: 60,
                explain: { "\(self.lines(peer)); drops \(ours.secretChats.recentDrops)" }
            ) { try self.incomingTexts(ours, chatId: chatId).contains("pong \(round)") }
        }
        #expect(try incomingTexts(ours, chatId: chatId) == ["pong 1", "pong 2"])
        let session = try #require(try ours.secretChats.record(chatId: chatId)?.session)
        #expect(session.held.isEmpty)
        // Its layer notice (1.0), then two pongs (2.0), each taken in order; nothing refused, nothing given up.
        #expect(session.sequence.inRaw >= 3)
        #expect(session.peerLayer.map { $0 >= SecretChatSession.mtproto2Layer } == true)
        #expect(session.peerMTProto2From == 1)
        #expect(ours.secretChats.recentDrops.isEmpty, "\(ours.secretChats.recentDrops)")
        peer.send(SIGTERM)
        _ = await peer.waitOffPool(timeout: 20)
        try await world.close([ours])
    }
}
