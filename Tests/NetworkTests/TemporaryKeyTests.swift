import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoCore
import MTProtoServer
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import TLRuntime
import TelegramApi
import Testing

/// Perfect forward secrecy against our server over real sockets (core.telegram.org "Perfect Forward Secrecy"): a
/// temporary key (`p_q_inner_data_temp_dc`) is useless for an account until `auth.bindTempAuthKey` binds it to the
/// account's permanent key; then it acts for that key — its calls and the pushes for its authorization.
@Suite(.serialized) struct TemporaryKeyTests {
    static func error(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch NetworkError.rpc(_, let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    static func selfId(_ connection: MTProtoConnection) async throws -> Int64? {
        let users = try await connection.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
        if case .user(let user)? = users.first { return user.id }
        return nil
    }

    @Test func aBoundTemporaryKeyActsForItsPermanentKey() async throws {
        let backend = try await BackendServer()
        let alice = try await backend.connect()
        let bob = try await backend.connect()
        let endpoint = try #require(backend.endpoints[2])
        let keys = backend.publicKeys
        let group = backend.group
        guard case .user(let aliceUser) = try await BackendServer.signUp(alice, phone: "9996623001", name: "Alice"),
            let aliceHash = aliceUser.accessHash
        else { throw CancellationError() }
        _ = try await BackendServer.signUp(bob, phone: "9996623002", name: "Bob")

        let temporary = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group, temporaryKeyLifetime: 3600)
        let expiresAt = try #require(temporary.key.expiresAt)
        #expect(abs(expiresAt - (Date().timeIntervalSince1970 + 3600)) < 60)
        // Not bound yet: help works, an account's method does not.
        _ = try await temporary.invoke(Api.functions.help.getConfig())
        #expect(await Self.error { _ = try await Self.selfId(temporary) } == "AUTH_KEY_PERM_EMPTY")
        // A permanent key cannot be bound as a temporary one; a key the server does not know cannot be bound to.
        #expect(await Self.error { try await alice.bindTemporaryKey(to: bob.key.authKey, expiresAt: Int32(expiresAt)) } == "TEMP_AUTH_KEY_EMPTY")
        let stranger = try #require(AuthKey(bytes: [UInt8](repeating: 3, count: 256)))
        #expect(await Self.error { try await temporary.bindTemporaryKey(to: stranger, expiresAt: Int32(expiresAt)) } == "ENCRYPTED_MESSAGE_INVALID")

        try await temporary.bindTemporaryKey(to: alice.key.authKey, expiresAt: Int32(expiresAt))
        #expect(try await Self.selfId(temporary) == aliceUser.id)
        // Bound to Alice's key, it cannot be bound to Bob's.
        #expect(await Self.error { try await temporary.bindTemporaryKey(to: bob.key.authKey, expiresAt: Int32(expiresAt)) } == "TEMP_AUTH_KEY_ALREADY_BOUND")

        // Bob writes to Alice: the session on the temporary key gets the push for Alice's authorization.
        let peer = Api.InputPeer.inputPeerUser(.init(userId: aliceUser.id, accessHash: aliceHash))
        _ = try await bob.invoke(Api.functions.messages.sendMessage(peer: peer, message: "forward secret", randomId: 1))
        let pushed = try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                for await body in temporary.updates {
                    if case .updates(let updates) = try Api.Updates(tlBytes: body),
                        updates.updates.contains(where: { if case .updateNewMessage = $0 { return true }; return false })
                    {
                        return true
                    }
                }
                return false
            }
            tasks.addTask {
                try await Task.sleep(nanoseconds: 15_000_000_000)
                return false
            }
            let first = try await tasks.next() ?? false
            tasks.cancelAll()
            return first
        }
        #expect(pushed, "no push reached the temporary key's session within 15 s")

        // A second temporary key bound to the same permanent key replaces the first binding.
        let second = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group, temporaryKeyLifetime: 600)
        try await second.bindTemporaryKey(to: alice.key.authKey, expiresAt: Int32(try #require(second.key.expiresAt)))
        #expect(try await Self.selfId(second) == aliceUser.id)
        #expect(await Self.error { _ = try await Self.selfId(temporary) } == "AUTH_KEY_PERM_EMPTY")

        for connection in [alice, bob, temporary, second] { await connection.close() }
        try await backend.close()
    }
}
