import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramCore

/// The cold start of an account with `messages` stored messages over 500 chats: a new `AccountManager`,
/// `account(id)` (Postbox open), `start()`, the connection with the stored key, `getDifference` answered, and the
/// first chat-list view emitted. No peer: Telethon keeps no message store to open.
enum ColdStart {
    struct Result {
        let median: Double
        let minimum: Double
        let runs: Int
    }

    static func run(
        manager: inout AccountManager?, root: String, environment: NetworkEnvironment, messages: Int
    ) async throws -> Result {
        var id: AccountRecordId
        do {
            let cold = try await BenchAccounts.signUp(manager!, phone: "9996622202", name: "Cole")
            id = cold.id
            cold.start()
            try await BenchAccounts.waitFor("Cole's first state") {
                try cold.postbox.readTransactionSync { tx in
                    (try tx.getState() as? AuthorizedAccountState)?.state
                } != nil
            }
            await cold.shutdown()
            // `messages` messages over 500 chats (users), 1,000 per transaction.
            var next = 1 as Int32
            try cold.postbox.transactionSync { tx in
                try tx.updatePeers(
                    (0..<500).map {
                        TelegramUser(
                            id: .user(5_000_000 + Int64($0)), accessHash: .personal(1), firstName: "User \($0)",
                            lastName: nil, username: nil, phone: nil)
                    })
            }
            for chunk in 0..<(messages / 1_000) {
                let batch = (0..<1_000).map { index -> StoreMessage in
                    defer { next += 1 }
                    let peer = PeerId.user(5_000_000 + Int64((chunk * 1_000 + index) % 500))
                    return StoreMessage(
                        id: .id(MessageId(peerId: peer, namespace: 0, id: next)), timestamp: 1_000_000 + next,
                        flags: [.incoming],
                        authorId: peer, text: "stored message \(next) with some words to index")
                }
                try cold.postbox.transactionSync { tx in _ = try tx.addMessages(batch) }
            }
        }
        manager = nil
        var times: [Double] = []
        for _ in 0..<BenchmarkMethod.rounds(5) {
            let started = now()
            let reopened = try AccountManager(rootPath: root + "/app", environment: environment)
            let account = try reopened.account(id)
            account.start()
            let firstList = LockedValue(false)
            let list = account.chatListView(count: 50).start(next: { view in
                if !view.entries.isEmpty { firstList.withLock { $0 = true } }
            })
            try await BenchAccounts.waitFor("the cold start") {
                firstList.withLock { $0 } && account.stateManager.hasCaughtUp
            }
            times.append(now() - started)
            list.dispose()
            await account.shutdown()
        }
        times.sort()
        return Result(median: median(times), minimum: times[0], runs: times.count)
    }
}
