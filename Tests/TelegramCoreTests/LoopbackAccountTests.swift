import UpdateSequencing
import AccountNetworking
import Foundation
import Network
import Postbox
import PostboxTesting
import ServerLoopback
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// TelegramCore's managers on the network interface with a network that is not the live one: accounts on a
/// `LoopbackNetwork`, which hands each call to tg-server's application layer in this process (no socket, no event
/// loop, no key exchange). Sign-in with DC migration, sending, pushes, the state manager and the pending queue are the
/// real ones; only the transport is absent.
@Suite struct LoopbackAccountTests {
    @Test func twoAccountsChatThroughTheServerWithoutASocket() async throws {
        let world = try await AccountIntegrationTests.World()
        // Ann's number lives on DC 1: sendCode on DC 2 is answered PHONE_MIGRATE_1, which moves her main DC.
        let ann = try await AccountIntegrationTests.signUp(world.manager, phone: "9996611301", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world.manager, phone: "9996622302", name: "Ben")
        let mainDcs = (await ann.network.mainDc, await ben.network.mainDc)
        #expect(mainDcs == (1, 2))
        #expect(ann.network is LoopbackNetwork)
        try await AccountIntegrationTests.introduce(phone: "9996622302", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }

        _ = try ann.enqueue([EnqueueMessage(text: "over the loopback"), EnqueueMessage(text: "twice")], to: ben.peerId)
        try await AccountIntegrationTests.wait("Ann's copies acknowledged") {
            let mine = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId)
            return mine.count == 2 && mine.allSatisfy { $0.id.namespace == Namespaces.Message.cloud }
        }
        // Ben's copy comes by push: the server's gateway delivers to his loopback session, his state manager applies it.
        try await AccountIntegrationTests.wait("Ben has both") {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 2
        }
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.text).sorted() == ["over the loopback", "twice"])
        try await world.close([ann, ben])
    }

    @Test func runningAccountsComeBackFromAServerRestartByThemselves() async throws {
        // The server dies and starts again on its storage while both clients run: their sessions end, they come back
        // on new ones, and what is sent after the restart reaches the other side (a hole would leave it unseen).
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world.manager, phone: "9996622311", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world.manager, phone: "9996622312", name: "Ben")
        try await AccountIntegrationTests.introduce(phone: "9996622312", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        _ = try ann.enqueue([EnqueueMessage(text: "before")], to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has the first") {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 1
        }
        let server = try world.loopback
        try server.restart()
        #expect(server.restarts == 1)
        _ = try ann.enqueue([EnqueueMessage(text: "after")], to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has the one sent after the restart", timeout: 5) {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.text).sorted() == ["after", "before"]
        }
        try await world.close([ann, ben])
    }

    @Test func aClosedLoopbackRefusesCallsUntilReopened() async throws {
        let server = try LoopbackServer()
        defer { server.remove() }
        let network = server.network(store: InMemoryNetworkKeyStore())
        _ = try await network.request(Api.functions.help.getNearestDc())
        await network.close()
        await #expect(throws: NetworkError.connectionClosed) { try await network.request(Api.functions.help.getNearestDc()) }
        network.reopen()
        _ = try await network.request(Api.functions.help.getNearestDc())
        // A call the server refuses comes back as its rpc_error, after the client's rules (here: none apply).
        await #expect(throws: NetworkError.rpc(code: 401, message: "AUTH_KEY_UNREGISTERED")) {
            try await network.request(Api.functions.users.getUsers(id: [.inputUserSelf]))
        }
    }
}
