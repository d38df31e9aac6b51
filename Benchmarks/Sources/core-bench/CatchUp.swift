import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import UpdateSequencing

/// The catch-up rounds: every round a new authorization of the same user, signed in just before, starts from the
/// same state and catches up the same difference into a Postbox of its own — so each round has the same input, and
/// no round finds what an earlier one stored.
struct CatchUp {
    let manager: AccountManager
    let phone: String
    let start: UpdatesState
    let chats: [PeerId]
    /// The messages the difference holds: each chat's creation and its messages.
    let expected: Int

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

    /// One round of ours: a fresh authorization whose stored state is `start`, timed from `start()` until every
    /// message of the difference is in its Postbox. `inspect` sees the account before it shuts down.
    func fresh(
        isolation: isolated (any Actor)? = #isolation, inspect: (Account) throws -> Void = { _ in }
    ) async throws -> TimedRun<String> {
        let account = try await BenchAccounts.signIn(manager, phone: phone)
        try account.postbox.transactionSync { tx in
            try tx.setState(AuthorizedAccountState(peerId: account.peerId, state: start))
        }
        let started = now()
        account.start()
        try await BenchAccounts.waitFor("the catch-up", timeout: 300) {
            account.stateManager.statistics.storedMessages >= expected
        }
        let seconds = now() - started
        let output = try MessageChecksum.stored(account.postbox, chats: chats)
        try inspect(account)
        await account.shutdown()
        return TimedRun(seconds: seconds, output: output.description)
    }

    /// The limit: the same messages inserted into a new Postbox by Postbox itself, in the order the difference
    /// brought them (ids of one message box grow in arrival order), 1,000 per transaction as the slices were.
    static func bulkInsert(
        _ messages: [StoreMessage], peers: [Peer], chats: [PeerId], path: String
    ) throws -> TimedRun<String> {
        let postbox = try Postbox.open(
            accountPath: path,
            encryption: try PostboxEncryptionParameters(keyAndSalt: Array(repeating: 7, count: 48)))
        try postbox.transactionSync { tx in try tx.updatePeers(peers) }
        let started = now()
        for start in stride(from: 0, to: messages.count, by: 1_000) {
            let chunk = Array(messages[start..<min(start + 1_000, messages.count)])
            try postbox.transactionSync { tx in _ = try tx.addMessages(chunk) }
        }
        let seconds = now() - started
        return TimedRun(seconds: seconds, output: try MessageChecksum.stored(postbox, chats: chats).description)
    }

    /// What a caught-up account stored, in arrival order, for `bulkInsert`.
    static func storedMessages(_ account: Account, chats: [PeerId]) throws -> ([StoreMessage], [Peer]) {
        let messages = try account.postbox.readTransactionSync { tx in
            try chats.flatMap { try tx.earlierMessages(peerId: $0, before: nil, count: 100_000) }
        }.sorted { $0.id.id < $1.id.id }.map { $0.toStoreMessage() }
        let peers = try account.postbox.readTransactionSync { tx in try tx.getAllPeers() }
        return (messages, peers)
    }

    /// `updates.getDifference` from `start` through every slice over `account`'s network, parsed, not stored.
    func receiveOnly(_ account: Account, isolation: isolated (any Actor)? = #isolation) async throws -> TimedRun<String>
    {
        var state = start
        var checksum = MessageChecksum()
        let started = now()
        while true {
            let difference = try await account.network.request(
                Api.functions.updates.getDifference(pts: state.pts, date: state.date, qts: state.qts))
            switch difference {
            case .differenceSlice(let slice):
                for message in slice.newMessages { checksum.add(message) }
                guard case .state(let next) = slice.intermediateState else { throw BenchFailure("no state") }
                state = UpdatesState(pts: next.pts, qts: next.qts, seq: next.seq, date: next.date)
                continue
            case .difference(let last):
                for message in last.newMessages { checksum.add(message) }
            default:
                break
            }
            break
        }
        let seconds = now() - started
        return TimedRun(seconds: seconds, output: checksum.description)
    }
}
