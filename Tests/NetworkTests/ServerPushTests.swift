import CryptoUtils
import Foundation
import MTProtoServer
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import TLRuntime
import TelegramApi
import Testing

/// Our client receives what tg-server pushes (`MTProtoConnection.updates`): two accounts signed up over real
/// sockets, one writes, the other's connection yields the message as Telegram pushes it, and the writer's own
/// session gets it only as the call's result.
@Suite(.serialized) struct ServerPushTests {
    static func userId(_ peer: Api.Peer) -> Int64? {
        if case .peerUser(let user) = peer { return user.userId }
        return nil
    }

    @Test func aMessageIsPushedToTheOtherAccountOnly() async throws {
        let backend = try await BackendServer()
        let alice = try await backend.connect()
        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(alice, phone: "9996621001", name: "Alice")
        guard case .user(let bobUser) = try await BackendServer.signUp(bob, phone: "9996621002", name: "Bob"),
            let bobHash = bobUser.accessHash
        else { Issue.record("no user"); return }

        let peer = Api.InputPeer.inputPeerUser(.init(userId: bobUser.id, accessHash: bobHash))
        let sent = try await alice.invoke(Api.functions.messages.sendMessage(peer: peer, message: "pushed", randomId: 1))
        guard case .updateShortSentMessage(let short) = sent else { Issue.record("expected updateShortSentMessage, got \(sent)"); return }
        #expect(short.out && short.pts == 1 && short.ptsCount == 1)

        // Bob's connection yields the message (the first of a conversation comes as `updates` with the sender).
        let received = try await withThrowingTaskGroup(of: Api.Updates?.self) { tasks in
            tasks.addTask {
                for await body in bob.updates { return try Api.Updates(tlBytes: body) }
                return nil
            }
            tasks.addTask {
                try await Task.sleep(nanoseconds: 15_000_000_000)
                return nil
            }
            let first = try await tasks.next() ?? nil
            tasks.cancelAll()
            return first
        }
        guard case .updates(let updates) = try #require(received, "nothing pushed to Bob within 15 s") else {
            Issue.record("expected updates, got \(String(describing: received))")
            return
        }
        guard case .updateNewMessage(let new)? = updates.updates.first, case .message(let message) = new.message else {
            Issue.record("expected updateNewMessage, got \(updates.updates)")
            return
        }
        #expect(message.message == "pushed" && !message.out && new.pts == 1)
        // The sender comes with it, so Bob can show who wrote.
        #expect(updates.users.contains { if case .user(let user) = $0 { return user.id == message.fromId.map(Self.userId) ?? nil }; return false })
        // Alice's own session got the message as her call's result, not pushed as well.
        let echoed = await withTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                for await _ in alice.updates { return true }
                return false
            }
            tasks.addTask {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                return false
            }
            let first = await tasks.next() ?? false
            tasks.cancelAll()
            return first
        }
        #expect(!echoed)

        await alice.close()
        await bob.close()
        try await backend.close()
    }
}
