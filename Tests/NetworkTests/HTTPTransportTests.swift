import AccountNetworking
import Foundation

import MTProtoCore
import Network
import ServerTestSupport
import TLRuntime
import TelegramApi
import Testing

/// Our client over MTProto's HTTP transport (POST /api on the same port as TCP): the key exchange, sign-up and calls,
/// and a push delivered through a POST the server holds.
@Suite(.serialized) struct HTTPTransportTests {
    @Test func keyExchangeCallsAndAHeldPollThatCarriesAPush() async throws {
        let backend = try await BackendServer()
        var endpoint = try #require(backend.endpoints[2])
        endpoint.http = true
        let alice = try await MTProtoConnection.connect(to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        guard case .user(let aliceUser) = try await BackendServer.signUp(alice, phone: "9996629001", name: "Alice"),
            let aliceHash = aliceUser.accessHash
        else { throw CancellationError() }
        let config = try await alice.invoke(Api.functions.help.getConfig())
        guard case .config(let value) = config else { throw CancellationError() }
        #expect(value.thisDc == 2)
        // A session over HTTP that stays: its acknowledgements keep a POST at the server, which the push answers.
        let session = try await DatacenterConnection.open(to: endpoint, key: alice.key, group: backend.group)
        let me = try await session.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let user)? = me.first else { throw CancellationError() }
        #expect(user.id == aliceUser.id)
        try await Task.sleep(nanoseconds: 500_000_000)
        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(bob, phone: "9996629002", name: "Bob")
        _ = try await bob.invoke(
            Api.functions.messages.sendMessage(
                peer: .inputPeerUser(.init(userId: aliceUser.id, accessHash: aliceHash)), message: "over a held poll", randomId: 9))
        let pushed = try await Self.firstPushedText(on: session, within: 15)
        #expect(pushed == "over a held poll")
        await session.close()
        await alice.close()
        await bob.close()
        try await backend.close()
    }

    /// The session's long polls carry `http_wait`: the server holds each only as long as `max_wait` asks (1 s here,
    /// against its own 25 s cap), so an idle session polls about once a second; a push still arrives on the poll
    /// held at the time.
    @Test func httpWaitPollsAreHeldAsLongAsTheyAskAndCarryAPush() async throws {
        let backend = try await BackendServer()
        var endpoint = try #require(backend.endpoints[2])
        endpoint.http = true
        let alice = try await MTProtoConnection.connect(to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        guard case .user(let aliceUser) = try await BackendServer.signUp(alice, phone: "9996629011", name: "Alice"),
            let aliceHash = aliceUser.accessHash
        else { throw CancellationError() }
        var options = DatacenterConnection.Options()
        options.httpWait = .init(maxDelay: 0, waitAfter: 0, maxWait: 1000)
        let session = try await DatacenterConnection.open(to: endpoint, key: alice.key, group: backend.group, options: options)
        _ = try await session.invoke(Api.functions.help.getNearestDc())
        let before = await session.httpPollCount()
        try await Task.sleep(nanoseconds: 4_000_000_000)
        let polls = await session.httpPollCount() - before
        // Held 25 s each (the server's cap, had it ignored http_wait), there would be at most one.
        #expect(polls >= 3, "\(polls) polls in 4 s with max_wait 1 s")

        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(bob, phone: "9996629012", name: "Bob")
        let sent = Date()
        _ = try await bob.invoke(
            Api.functions.messages.sendMessage(
                peer: .inputPeerUser(.init(userId: aliceUser.id, accessHash: aliceHash)), message: "over http_wait", randomId: 11))
        let pushed = try await Self.firstPushedText(on: session, within: 10)
        #expect(pushed == "over http_wait")
        // The push rides the poll held when it happened: well under one poll's max_wait plus a round trip on a loaded
        // machine, never the server's 25 s.
        #expect(Date().timeIntervalSince(sent) < 5)
        await session.close()
        await alice.close()
        await bob.close()
        try await backend.close()
    }

    /// The text of the first new message `session` is pushed, or nil after `seconds`.
    static func firstPushedText(on session: DatacenterConnection, within seconds: UInt64) async throws -> String? {
        try await withThrowingTaskGroup(of: String?.self) { tasks in
            tasks.addTask {
                for await event in session.events {
                    guard case .updates(let body) = event, case .updates(let all) = try Api.Updates(tlBytes: body) else { continue }
                    for case .updateNewMessage(let new) in all.updates {
                        if case .message(let message) = new.message { return message.message }
                    }
                }
                return nil
            }
            tasks.addTask {
                try await Task.sleep(nanoseconds: seconds * 1_000_000_000)
                return nil
            }
            let first = try await tasks.next() ?? nil
            tasks.cancelAll()
            return first
        }
    }
}
