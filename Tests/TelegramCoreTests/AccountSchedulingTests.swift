import Foundation
import NIOPosix
import Postbox
import PostboxTesting
import ServerLoopback
import SwiftSignalKit
import SyncCore
import Synchronization
import TelegramCore
import Testing

/// `AccountManager(…, scheduling:)`: an account runs its managers on the queues the scheduling makes (the seam the
/// simulation's virtual clock goes through), and works on them.
@Suite struct AccountSchedulingTests {
    @Test func anAccountRunsItsManagersOnTheQueuesOfItsScheduling() async throws {
        let made = Mutex<[String]>([])
        let scheduling = AccountScheduling(
            makeQueue: { name in
                made.withLock { $0.append(name) }
                return Queue(name: name)
            },
            sleep: AccountScheduling.live.sleep)
        let server = try LoopbackServer()
        let root = TemporaryDirectory(prefix: "scheduling")
        var environment = NetworkEnvironment(
            datacenters: [:], defaultMainDc: 2, publicKeys: [], group: MultiThreadedEventLoopGroup.singleton)
        environment.customNetwork = { store in server.network(store: store) }
        let manager = try AccountManager(rootPath: root.path, environment: environment, scheduling: scheduling)
        let account = try await AccountIntegrationTests.signUp(manager, phone: "9996620001", name: "Ann")
        #expect(made.withLock { $0 }.sorted() == ["AccountStateManager", "PendingMessageManager"])

        account.start()
        try await AccountIntegrationTests.wait("the first state", timeout: 10) { account.stateManager.hasCaughtUp }
        try account.enqueue([EnqueueMessage(text: "to myself")], to: account.peerId)
        try await AccountIntegrationTests.wait("the message sent", timeout: 10) {
            try account.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty
        }
        // Nothing else asked for a queue: every queue the account's managers run on came from the scheduling.
        #expect(made.withLock { $0 }.count == 2)
        await account.shutdown()
        server.remove()
        root.remove()
    }
}
