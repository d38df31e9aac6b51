import BenchmarkSupport
import CoreBenchSupport
import CryptoUtils
import Foundation
import Network
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore

/// Catching up `posts` broadcast-channel posts made while our subscribers were offline: our `Account` through
/// `updates.getDifference` (`updateChannelTooLong`) and `updates.getChannelDifference` slices of 100 into Postbox,
/// against Telethon 1.45 + cryptg fetching and parsing the same channel difference with the same limit in interleaved
/// rounds (`compareInterleavedRounds`: round r is subscriber r's catch-up — a fresh account with the same input — and
/// Telethon's, the order alternating), and against Postbox's own insert of what each subscriber stored (1,000 a
/// transaction; and 5,000, 50 slices, a channel catch-up's group), timed right after ours in the same round. One in-process tg-server (its
/// channel gap raised past `posts`, so the whole difference is served rather than `channelDifferenceTooLong`). Every
/// side's result is compared each round — the number of posts and a SHA-256 over "id text" lines in id order — and
/// ours must also be what the writer posted.
enum ChannelCatchUp {
    /// Ours against Telethon over the timed rounds, and per timed round what ran beside ours.
    struct Result {
        let comparison: Comparison
        let extras: [Extra]
    }

    /// Our catch-up's time in a timed round, Postbox's own insert of what that round's subscriber stored (1,000 and 5,000 a transaction), and that
    /// subscriber's channel differences and seconds in batch transactions.
    struct Extra {
        /// Our catch-up's seconds in that round.
        let ours: Double
        let bulk: Double
        let bulkByGroup: Double
        let differences: Int
        let apply: Double
        /// The subscriber's channel differences: summed round trips (ask to arrival), waits for its queue once
        /// arrived, and the queue's time handling them (writes included).
        let roundTrips: Double
        let queueWaits: Double
        let handling: Double
        /// Postbox's writer CPU per write transaction: the catch-up's, and the insert's by 5,000 (its first
        /// transaction, the peers, included).
        let writerCPU: Double
        let byGroupWriterCPU: Double
    }

    /// `rounds` timed rounds after a warm-up (`BENCH_ROUNDS` overrides), one subscriber each.
    static func run(posts: Int, rounds: Int) async throws -> Result {
        let timedRounds = BenchmarkMethod.rounds(rounds)
        let bench = try await BenchWorld(name: "channel-bench", channelDifferenceGap: Int64(posts) * 2)
        defer { bench.remove() }
        let manager = try AccountManager(rootPath: bench.root + "/app", environment: bench.environment)
        var subscribers: [(account: Account, phone: String)] = []
        for index in 0...timedRounds {
            let phone = "99966222" + String(format: "%02d", index + 1)
            let account = try await BenchAccounts.signUp(manager, phone: phone, name: "Sub \(index)")
            account.start()
            subscribers.append((account, phone))
        }
        for (account, _) in subscribers {
            try await BenchAccounts.waitFor("a subscriber's first state") { account.stateManager.hasCaughtUp }
        }

        // The writer (a raw client) makes the channel, adds the subscribers, and says hello while they are online.
        let writer = try await bench.server.connect(dc: 2)
        _ = try await BackendServer.signUp(writer, phone: "9996622299", name: "Wes")
        let created = try await writer.invoke(
            Api.functions.channels.createChannel(broadcast: true, title: "Posts", about: ""))
        guard case .updates(let body) = created, case .channel(let channel)? = body.chats.first,
            let hash = channel.accessHash
        else { throw BenchFailure("createChannel: \(created)") }
        let input = Api.InputChannel.inputChannel(.init(channelId: channel.id, accessHash: hash))
        let imported = try await writer.invoke(
            Api.functions.contacts.importContacts(
                contacts: subscribers.enumerated().map { index, subscriber in
                    .inputPhoneContact(
                        .init(clientId: Int64(index), phone: subscriber.phone, firstName: "S", lastName: ""))
                }))
        guard case .importedContacts(let contacts) = imported else { throw BenchFailure("importContacts") }
        let users = contacts.users.compactMap { user -> Api.InputUser? in
            guard case .user(let user) = user, let hash = user.accessHash else { return nil }
            return .inputUser(.init(userId: user.id, accessHash: hash))
        }
        guard users.count == subscribers.count else { throw BenchFailure("found \(users.count) subscribers") }
        _ = try await writer.invoke(Api.functions.channels.inviteToChannel(channel: input, users: users))
        let peer = Api.InputPeer.inputPeerChannel(.init(channelId: channel.id, accessHash: hash))
        _ = try await writer.invoke(Api.functions.messages.sendMessage(peer: peer, message: "hello", randomId: 1))
        let channelPeer = PeerId.channel(channel.id)
        for (account, _) in subscribers {
            try await BenchAccounts.waitFor("a subscriber's hello") {
                try account.postbox.readTransactionSync { tx in
                    try tx.earlierMessages(peerId: channelPeer, before: nil, count: 5).contains { $0.text == "hello" }
                        && tx.getPeerChatState(channelPeer) is ChannelState
                }
            }
            await account.shutdown()
        }

        // Offline: the writer posts, 64 calls in flight; what it was answered is what everyone must end up with.
        let fillStarted = now()
        let posted = try await post(writer, to: peer, count: posts)
        await writer.close()
        print(String(format: "channel catch-up: %d posts made in %.1f s", posts, now() - fillStarted))
        let expected = checksum(posted)

        // Telethon + cryptg: a second authorization of the first subscriber, kept running (`PeerProcess`), fetches
        // the same channel difference from the same pts with the same limit in every round.
        let telethonAccessHash = try accessHash(subscribers[0].account.postbox, channelPeer)
        let telethon = try PeerProcess(
            "telethon_channel_difference.py",
            arguments: ["--port", String(bench.port), "--pem-file", bench.pem, "--phone", subscribers[0].phone])

        // Round r (0 is the warm-up) is subscriber r's catch-up against Telethon's, interleaved (`compareInterleavedRounds`);
        // right after ours, Postbox's own insert of what that subscriber stored, in transactions of 1,000 and of 5,000.
        var extras: [Extra] = []
        let writerPosted = "\(posts) posts, sha256 \(hex(expected))"
        let telethonStartPts = try startPts(subscribers[0].account.postbox, channelPeer)
        let comparison = try await compareInterleavedRounds(
            "channel catch-up vs Telethon", items: Double(posts), unit: "msgs", rounds: rounds,
            oursAsync: { round -> TimedRun<String> in
                let account = subscribers[round].account
                let pts = try startPts(account.postbox, channelPeer)
                let storedBefore = account.stateManager.statistics.storedMessages
                let writesBefore = account.postbox.writeStatistics()
                let differencesBefore = account.stateManager.statistics.channelDifferences
                let applyBefore = account.stateManager.statistics.applySeconds
                let before = account.stateManager.statistics
                let started = now()
                account.start()
                try await BenchAccounts.waitFor("the catch-up", timeout: 600) {
                    account.stateManager.statistics.storedMessages - storedBefore >= posts
                }
                let seconds = now() - started
                let stored = try storedPosts(account.postbox, channelPeer)
                let statistics = account.stateManager.statistics
                await account.shutdown()
                guard pts == telethonStartPts else {
                    throw BenchFailure(
                        "subscriber \(round) started at pts \(pts), Telethon at \(telethonStartPts)")
                }
                // Postbox's own insert of the same messages, 1,000 and then 5,000 per transaction.
                let (bulk, inserted) = try bulkInsert(
                    from: account.postbox, channelPeer, into: bench.root + "/bulk-\(round)", perTransaction: 1_000)
                let writes = account.postbox.writeStatistics()
                let (bulkByGroup, byGroupPostbox) = try bulkInsert(
                    from: account.postbox, channelPeer, into: bench.root + "/bulk-5000-\(round)", perTransaction: 5_000)
                let reread = try storedPosts(inserted, channelPeer)
                guard reread.count == posts, checksum(reread) == expected else {
                    throw BenchFailure("the bulk insert holds \(reread.count) posts, not the \(posts) posted")
                }
                if round > 0 {
                    extras.append(
                        Extra(
                            ours: seconds, bulk: bulk.seconds, bulkByGroup: bulkByGroup.seconds,
                            differences: statistics.channelDifferences - differencesBefore,
                            apply: statistics.applySeconds - applyBefore,
                            roundTrips: statistics.channelRoundTripSeconds - before.channelRoundTripSeconds,
                            queueWaits: statistics.channelQueueWaitSeconds - before.channelQueueWaitSeconds,
                            handling: statistics.channelHandlingSeconds - before.channelHandlingSeconds,
                            writerCPU: (writes.cpuSeconds - writesBefore.cpuSeconds)
                                / Double(writes.transactions - writesBefore.transactions),
                            byGroupWriterCPU: byGroupPostbox.writeStatistics().cpuSeconds
                                / Double(byGroupPostbox.writeStatistics().transactions)))
                }
                let output = "\(stored.count) posts, sha256 \(hex(checksum(stored)))"
                guard output == writerPosted else {
                    throw BenchFailure("our catch-up stored \(output), the writer posted \(writerPosted)")
                }
                return TimedRun(seconds: seconds, output: output)
            },
            peerAsync: { _ in
                try await telethon.timedOffPool([
                    "channel_id": channel.id, "access_hash": telethonAccessHash, "pts": telethonStartPts, "limit": 100,
                ])
            })
        try await bench.server.close()
        return Result(comparison: comparison, extras: extras)
    }

    /// The channel's pts as `postbox`'s account stored it.
    static func startPts(_ postbox: Postbox, _ channel: PeerId) throws -> Int32 {
        try postbox.readTransactionSync { tx in (try tx.getPeerChatState(channel) as? ChannelState)?.pts ?? 0 }
    }

    /// The channel's access hash as `postbox`'s account stored it.
    static func accessHash(_ postbox: Postbox, _ channel: PeerId) throws -> Int64 {
        try postbox.readTransactionSync { tx in
            guard case .inputChannel(let own)? = (try tx.getPeer(channel) as? TelegramChannel)?.apiInputChannel
            else { throw BenchFailure("no access hash for the channel") }
            return own.accessHash
        }
    }

    /// Sends `count` posts ("post N"), 64 calls in flight; returns each post's id and text as the server answered.
    static func post(_ writer: MTProtoConnection, to peer: Api.InputPeer, count: Int) async throws -> [(Int32, String)]
    {
        let next = LockedValue(0)
        return try await withThrowingTaskGroup(of: [(Int32, String)].self) { tasks in
            for _ in 0..<64 {
                tasks.addTask {
                    var mine: [(Int32, String)] = []
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < count else { return mine }
                        let text = "post \(index)"
                        let answer = try await writer.invoke(
                            Api.functions.messages.sendMessage(peer: peer, message: text, randomId: Int64(index + 10)))
                        guard case .updates(let body) = answer,
                            let id = body.updates.lazy.compactMap({ update -> Int32? in
                                if case .updateMessageID(let sent) = update { return sent.id }
                                return nil
                            }).first
                        else { throw BenchFailure("sendMessage: \(answer)") }
                        mine.append((id, text))
                    }
                }
            }
            var all: [(Int32, String)] = []
            for try await part in tasks { all += part }
            return all
        }
    }

    /// The posts ("post …") stored in `postbox` for the channel, as (id, text).
    static func storedPosts(_ postbox: Postbox, _ channel: PeerId) throws -> [(Int32, String)] {
        try postbox.readTransactionSync { tx in
            try tx.earlierMessages(peerId: channel, before: nil, count: 10_000_000)
        }.filter { $0.text.hasPrefix("post ") }.map { ($0.id.id, $0.text) }
    }

    /// SHA-256 over "id text\n" lines in id order.
    static func checksum(_ posts: [(Int32, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (id, text) in posts.sorted(by: { $0.0 < $1.0 }) { bytes += Array("\(id) \(text)\n".utf8) }
        return Digest.sha256(bytes)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The channel's stored posts, read from `source`, inserted into a new Postbox at `path` in transactions of
    /// `perTransaction` in id order (the peers first, untimed); returns the time and the new Postbox.
    static func bulkInsert(
        from source: Postbox, _ channel: PeerId, into path: String, perTransaction: Int
    ) throws -> (BenchmarkSupport.Measurement, Postbox) {
        let messages = try source.readTransactionSync { tx in
            try tx.earlierMessages(peerId: channel, before: nil, count: 10_000_000)
        }.filter { $0.text.hasPrefix("post ") }.sorted { $0.id.id < $1.id.id }.map { $0.toStoreMessage() }
        let peers = try source.readTransactionSync { tx in try tx.getAllPeers() }
        let postbox = try Postbox.open(
            accountPath: path,
            encryption: try PostboxEncryptionParameters(keyAndSalt: Array(repeating: 7, count: 48)))
        try postbox.transactionSync { tx in try tx.updatePeers(peers) }
        let started = now()
        for start in stride(from: 0, to: messages.count, by: perTransaction) {
            let chunk = Array(messages[start..<min(start + perTransaction, messages.count)])
            try postbox.transactionSync { tx in _ = try tx.addMessages(chunk) }
        }
        let measurement = BenchmarkSupport.Measurement(
            name: "bulk insert", seconds: now() - started, items: Double(messages.count), unit: "msgs")
        return (measurement, postbox)
    }
}
