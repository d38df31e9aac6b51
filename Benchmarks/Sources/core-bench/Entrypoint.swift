import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Network
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import UpdateSequencing

/// TelegramCore against tg-server on 127.0.0.1, with Telethon 1.45.0 and Postbox itself as peers in the same run:
/// catching up 50,000 messages over 200 chats through getDifference slices into Postbox (against Postbox's own bulk
/// insert of the same messages, the limit, and against Telethon receiving and parsing the same difference), the live
/// latency from a Telethon send to our open history view's emission, and the cold start of an account with 100,000
/// stored messages.
@main
enum CoreBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: core-bench

            TelegramCore against tg-server on 127.0.0.1 (Telethon 1.45 and Postbox itself as peers): catching up
            50,000 messages over 200 chats, live send-to-view latency, and the cold start of an account with 100,000 messages.
            Needs `make deps` (the venv with Telethon). Run through `make bench BENCH=core-bench`.
            """)
        printMachine()
        registerTelegramCoreTypes()
        let bench = try await BenchWorld(name: "core-bench")
        defer { bench.remove() }
        let (world, root, pem, port, environment) = (bench.server, bench.root, bench.pem, bench.port, bench.environment)

        var manager: AccountManager? = try AccountManager(rootPath: root + "/app", environment: environment)
        let ann = try await BenchAccounts.signUp(manager!, phone: "9996622201", name: "Ann")
        ann.start()
        try await BenchAccounts.waitFor("Ann's first state") { try storedState(ann) != nil }
        await ann.shutdown()
        let start = try storedState(ann)!

        // The writer (a raw client) makes 200 groups with Ann and fills each with 250 messages while she is offline.
        let (chats, fillSeconds) = try await fill(world: world, targetPhone: "9996622201", chats: 200, perChat: 250)
        print(String(format: "filled 200 chats with 50,000 messages in %.1f s", fillSeconds))

        // Ours: start the account and wait until every message is in Postbox.
        let expected = chats.count * 251  // each chat's creation message and its 250 messages
        let catchUpStart = now()
        ann.start()
        try await BenchAccounts.waitFor("the catch-up", timeout: 300) {
            ann.stateManager.statistics.storedMessages >= expected
        }
        let catchUp = BenchmarkSupport.Measurement(
            name: "catch-up", seconds: now() - catchUpStart, items: Double(expected), unit: "msgs")
        let differences = ann.stateManager.statistics.differences
        let applySeconds = ann.stateManager.statistics.applySeconds
        let sequencerSeconds = ann.stateManager.statistics.sequencerSeconds

        // The limit: Postbox's own insert of the same messages, in transactions of the same size as the slices.
        let bulk = try bulkInsert(ann: ann, chats: chats, root: root)

        // Our client receiving and parsing the same difference without storing it (what Telethon's figure measures).
        let receiveOnly = try await receiveDifference(ann: ann, from: start)

        // Telethon: a second authorization of Ann receives and parses the same difference.
        let telethon = try runBenchmarkScript(
            "telethon_difference.py",
            arguments: [
                "--port", String(port), "--pem-file", pem, "--phone", "9996622201", "--pts", String(start.pts),
                "--date", String(start.date), "--qts", String(start.qts),
            ])
        let telethonMessages = (telethon["messages"] as? Double) ?? Double((telethon["messages"] as? Int) ?? 0)
        let telethonRate = BenchmarkSupport.Measurement(
            name: "telethon", seconds: (telethon["seconds"] as? Double) ?? .nan, items: telethonMessages, unit: "msgs")

        // Live: Telethon sends; our open history view of that chat emits.
        let live = try await liveLatency(ann: ann, port: port, pem: pem)

        // Cold start: an account with 100,000 stored messages opens, connects, gets its state and shows its chat list.
        let cold = try await coldStart(manager: &manager, root: root, environment: environment)
        try await world.close()

        printTable(
            title: "TelegramCore (tg-server on 127.0.0.1)", peerName: "peer",
            [
                Comparison(
                    "catch-up: 50,200 messages in 200 chats via getDifference into Postbox vs Postbox bulk insert (the limit)",
                    ours: catchUp, peer: bulk, goal: "≥ 0.5×"),
                Comparison(
                    "catch-up vs Telethon 1.45 receiving and parsing the same difference", ours: catchUp,
                    peer: telethonRate, goal: "≥ 5×"),
                Comparison(
                    "receiving and parsing the difference only (AccountNetwork) vs Telethon 1.45", ours: receiveOnly,
                    peer: telethonRate),
            ])
        print(
            String(
                format:
                    "\ncatch-up: %.0f messages/s in %d difference calls; Postbox bulk insert %.0f/s; Telethon %.0f/s (%.0f messages)",
                catchUp.throughput, differences, bulk.throughput, telethonRate.throughput, telethonMessages))
        print(
            String(
                format:
                    "of the catch-up's %.2f s: %.2f s in batch transactions (conversion and Postbox), %.2f s in the state machine",
                catchUp.seconds, applySeconds, sequencerSeconds))
        print(
            String(
                format:
                    "live: Telethon send → our history view emits: p50 %.2f ms, p99 %.2f ms over %d messages (goal p50 ≤ 5 ms)",
                live.p50 * 1000, live.p99 * 1000, live.count))
        print(
            String(
                format:
                    "cold start with 100,000 stored messages (open, connect, getDifference, first chat list): median %.0f ms of 5, min %.0f ms (goal ≤ 300 ms)",
                cold.median * 1000, cold.minimum * 1000))
    }

    // MARK: - Steps

    static func storedState(_ account: Account) throws -> UpdatesState? {
        try account.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state }
    }

    /// A raw client signs up, makes `chats` basic groups with the target and sends `perChat` messages into each,
    /// 64 calls in flight.
    static func fill(
        world: BackendServer, targetPhone: String, chats: Int, perChat: Int
    ) async throws -> ([PeerId], Double) {
        let writer = try await world.connect(dc: 2)
        _ = try await BackendServer.signUp(writer, phone: "9996622299", name: "Wes")
        let imported = try await writer.invoke(
            Api.functions.contacts.importContacts(contacts: [
                .inputPhoneContact(.init(clientId: 1, phone: targetPhone, firstName: "", lastName: ""))
            ]))
        guard case .importedContacts(let contacts) = imported, case .user(let user)? = contacts.users.first,
            let hash = user.accessHash
        else {
            throw BenchFailure("the writer could not find the target")
        }
        let started = now()
        var groups: [Int64] = []
        for index in 0..<chats {
            let created = try await writer.invoke(
                Api.functions.messages.createChat(
                    users: [.inputUser(.init(userId: user.id, accessHash: hash))], title: "chat \(index)"))
            guard case .invitedUsers(let invited) = created, case .updates(let updates) = invited.updates,
                case .chat(let chat)? = updates.chats.first
            else { throw BenchFailure("createChat gave no chat") }
            groups.append(chat.id)
        }
        let jobs = (0..<perChat).flatMap { number in groups.map { ($0, number) } }
        let next = LockedValue(0)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for _ in 0..<64 {
                tasks.addTask {
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < jobs.count else { return }
                        let (chat, number) = jobs[index]
                        _ = try await writer.invoke(
                            Api.functions.messages.sendMessage(
                                peer: .inputPeerChat(.init(chatId: chat)), message: "message \(number) in \(chat)",
                                randomId: Int64(index + 1)))
                    }
                }
            }
            try await tasks.waitForAll()
        }
        await writer.close()
        return (groups.map(PeerId.group), now() - started)
    }

    /// `updates.getDifference` from `start` through every slice over Ann's network, parsed, not stored.
    static func receiveDifference(ann: Account, from start: UpdatesState) async throws -> BenchmarkSupport.Measurement {
        var state = start
        var messages = 0
        let started = now()
        while true {
            let difference = try await ann.network.request(
                Api.functions.updates.getDifference(pts: state.pts, date: state.date, qts: state.qts))
            switch difference {
            case .differenceSlice(let slice):
                messages += slice.newMessages.count
                guard case .state(let next) = slice.intermediateState else { throw BenchFailure("no state") }
                state = UpdatesState(pts: next.pts, qts: next.qts, seq: next.seq, date: next.date)
                continue
            case .difference(let last):
                messages += last.newMessages.count
            default:
                break
            }
            break
        }
        return BenchmarkSupport.Measurement(
            name: "receive", seconds: now() - started, items: Double(messages), unit: "msgs")
    }

    /// The same messages, read back from Ann's Postbox, inserted into a fresh Postbox.
    static func bulkInsert(ann: Account, chats: [PeerId], root: String) throws -> BenchmarkSupport.Measurement {
        // In the order the difference brought them (ids of one message box grow in arrival order), 1,000 per
        // transaction as the slices were.
        let messages = try ann.postbox.readTransactionSync { tx in
            try chats.flatMap { try tx.earlierMessages(peerId: $0, before: nil, count: 10_000) }
        }.sorted { $0.id.id < $1.id.id }.map { $0.toStoreMessage() }
        let peers = try ann.postbox.readTransactionSync { tx in try tx.getAllPeers() }
        let postbox = try Postbox.open(
            accountPath: root + "/bulk",
            encryption: try PostboxEncryptionParameters(keyAndSalt: Array(repeating: 7, count: 48)))
        try postbox.transactionSync { tx in try tx.updatePeers(peers) }
        let started = now()
        for start in stride(from: 0, to: messages.count, by: 1_000) {
            let chunk = Array(messages[start..<min(start + 1_000, messages.count)])
            try postbox.transactionSync { tx in _ = try tx.addMessages(chunk) }
        }
        return BenchmarkSupport.Measurement(
            name: "bulk insert", seconds: now() - started, items: Double(messages.count), unit: "msgs")
    }

    struct Latency {
        let p50: Double
        let p99: Double
        let count: Int
    }

    static func liveLatency(ann: Account, port: Int, pem: String) async throws -> Latency {
        let seen = LockedValue<[String: Double]>([:])
        // The sender's id is known only after it signs up: watch every chat-list change for new chats, and each
        // chat's history once it appears. One sender: the first private chat that is not Ann's own.
        let watched = LockedValue<Disposable?>(nil)
        let list = ann.chatListView(count: 5).start(next: { view in
            guard
                let entry = view.entries.first(where: {
                    $0.peerId.namespace == Namespaces.Peer.cloudUser && $0.peerId != ann.peerId
                }),
                watched.withLock({ $0 == nil })
            else { return }
            let disposable = ann.historyView(peerId: entry.peerId, count: 20).start(next: { history in
                let at = Date().timeIntervalSince1970
                seen.withLock { seen in
                    for item in history.entries where seen[item.message.text] == nil { seen[item.message.text] = at }
                }
            })
            watched.withLock { $0 = disposable }
        })
        defer {
            list.dispose()
            watched.withLock { $0?.dispose() }
        }
        let report = try runBenchmarkScript(
            "telethon_live_sender.py",
            arguments: [
                "--port", String(port), "--pem-file", pem, "--phone", "9996622298", "--target-phone", "9996622201",
                "--count", "200",
            ])
        let sentAt = (report["sent_at"] as? [String: Double]) ?? [:]
        try await BenchAccounts.waitFor("every live message", timeout: 30) {
            seen.withLock { seen in sentAt.keys.allSatisfy { seen[$0] != nil } }
        }
        // The first message opens the chat (its view starts then): leave it out.
        let samples = seen.withLock { seen in
            sentAt.filter { $0.key != "live 0" }.compactMap { key, sent in seen[key].map { $0 - sent } }
        }.sorted()
        return Latency(
            p50: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)],
            count: samples.count)
    }

    struct ColdStart {
        let median: Double
        let minimum: Double
    }

    static func coldStart(
        manager: inout AccountManager?, root: String, environment: NetworkEnvironment
    ) async throws -> ColdStart {
        var id: AccountRecordId
        do {
            let cold = try await BenchAccounts.signUp(manager!, phone: "9996622202", name: "Cole")
            id = cold.id
            cold.start()
            try await BenchAccounts.waitFor("Cole's first state") { try storedState(cold) != nil }
            await cold.shutdown()
            // 100,000 messages over 500 chats (users), 1,000 per transaction.
            var next = 1 as Int32
            try cold.postbox.transactionSync { tx in
                try tx.updatePeers(
                    (0..<500).map {
                        TelegramUser(
                            id: .user(5_000_000 + Int64($0)), accessHash: .personal(1), firstName: "User \($0)",
                            lastName: nil, username: nil, phone: nil)
                    })
            }
            for chunk in 0..<100 {
                let messages = (0..<1_000).map { index -> StoreMessage in
                    defer { next += 1 }
                    let peer = PeerId.user(5_000_000 + Int64((chunk * 1_000 + index) % 500))
                    return StoreMessage(
                        id: .id(MessageId(peerId: peer, namespace: 0, id: next)), timestamp: 1_000_000 + next,
                        flags: [.incoming],
                        authorId: peer, text: "stored message \(next) with some words to index")
                }
                try cold.postbox.transactionSync { tx in _ = try tx.addMessages(messages) }
            }
        }
        manager = nil
        var times: [Double] = []
        for _ in 0..<5 {
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
        return ColdStart(median: times[times.count / 2], minimum: times[0])
    }
}
