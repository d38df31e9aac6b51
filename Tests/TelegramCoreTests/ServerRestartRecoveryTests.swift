import AccountNetworking
import Foundation
import Network
import Postbox
import ServerTestSupport
import TelegramApi
import TelegramCore
import Testing

/// Running accounts come back from a server restart by themselves — the in-process twin of TelegramClientTests'
/// `ServerRestartTests`: the server's connections all close, a new server starts on the same data and ports with no
/// sessions and no one to push to, and a message sent after the restart reaches the other account's Postbox within
/// 5 s. Each account reconnects, follows the server into the new session its next message creates (whose seq_nos
/// start again) and fetches the difference, which also makes its connection the one the server pushes to.
@Suite(.serialized) struct ServerRestartRecoveryTests {
    typealias Support = AccountIntegrationTests

    @Test func runningAccountsCatchUpAfterTheServerRestarts() async throws {
        let world = try await Support.World(restartable: true, transport: .sockets)
        let ivy = try await Support.signUp(world, phone: "9996622031", name: "Ivy")
        let jon = try await Support.signUp(world, phone: "9996622032", name: "Jon")
        ivy.start()
        jon.start()
        try await Support.wait("both first states") { ivy.stateManager.hasCaughtUp && jon.stateManager.hasCaughtUp }
        let ivyPeer = try await Support.find(phone: "9996622031") { try await jon.network.request($0) }
        _ = try await jon.network.request(
            Api.functions.messages.sendMessage(peer: ivyPeer, message: "before", randomId: 1))
        try await Support.wait("the message before the restart") {
            try Support.storedMessages(ivy, with: jon.peerId).count == 1
        }
        let differences = ivy.stateManager.statistics.differences

        try await world.server.restart()

        _ = try await jon.network.request(
            Api.functions.messages.sendMessage(peer: ivyPeer, message: "after", randomId: 2))
        try await Support.wait(
            "the message sent after the restart", timeout: 5,
            explain: { "caught up \(ivy.stateManager.hasCaughtUp), \(ivy.stateManager.statistics)" }
        ) { try Support.storedMessages(ivy, with: jon.peerId).count == 2 }
        #expect(try Support.storedMessages(ivy, with: jon.peerId).map(\.text).sorted() == ["after", "before"])
        // The new socket and the new session each asked for the difference.
        #expect(ivy.stateManager.statistics.differences > differences)
        try await world.close([ivy, jon])
    }
}
