import BenchmarkSupport
import Foundation
import NIOCore
import NIOPosix
import Network
import ServerBenchSupport
import TLRuntime
import TelegramApi

/// One post to a supergroup with `members` online members, through a release tg-server process on loopback: the time
/// from the poster's `messages.sendMessage` (sent on a connection of its own, so the server receives it within
/// microseconds) until each member's connection holds the push, and the server's CPU time per delivered update. The
/// members are our own `MTProtoConnection`s in this process, on the same two cores as the server.
enum PostFanOut {
    struct Round {
        /// Every member's latency of every post, seconds.
        var latencies: [Double] = []
        /// The slowest member's latency of each post, seconds.
        var lastMember: [Double] = []
        var delivered = 0
        var serverCPU = 0.0
    }

    struct Result {
        let members: Int
        let posts: Int
        let rounds: [Round]
    }

    static func run(members: Int, posts: Int, rounds: Int) async throws -> Result {
        let server = try ServerProcess(arguments: [
            "--max-connections-per-address", "4096", "--max-connections", "4096", "--max-calls-in-flight", "64",
            "--send-rate", "0",
        ])
        defer { server.stop() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .abridged)
        let publicKey = server.publicKey
        let started = now()
        // The owner is number 0, the members 1…members; eight sign-ups at a time (each makes its own auth key).
        var accounts: [Accounts.SignedUp] = []
        var next = 0
        while next <= members {
            let batch = next..<min(members + 1, next + 8)
            accounts += try await withThrowingTaskGroup(of: (Int, Accounts.SignedUp).self) { tasks in
                for number in batch {
                    tasks.addTask {
                        let connection = try await MTProtoConnection.connect(
                            to: endpoint, publicKeys: [publicKey], group: group)
                        return (number, try await Accounts.signUp(connection, number: number))
                    }
                }
                var done: [(Int, Accounts.SignedUp)] = []
                for try await item in tasks { done.append(item) }
                return done.sorted { $0.0 < $1.0 }.map(\.1)
            }
            next = batch.upperBound
        }
        let owner = accounts[0]
        let subscribers = Array(accounts.dropFirst())
        let created = try await owner.connection.invoke(
            Api.functions.channels.createChannel(megagroup: true, title: "Fan-out", about: ""))
        guard case .updates(let body) = created, case .channel(let channel)? = body.chats.first,
            let hash = channel.accessHash
        else { throw Accounts.Failure(description: "createChannel: \(created)") }
        let peer = Api.InputPeer.inputPeerChannel(.init(channelId: channel.id, accessHash: hash))
        let exported = try await owner.connection.invoke(Api.functions.messages.exportChatInvite(peer: peer))
        guard case .chatInviteExported(let invite) = exported, let plus = invite.link.range(of: "+") else {
            throw Accounts.Failure(description: "exportChatInvite: \(exported)")
        }
        let inviteHash = String(invite.link[plus.upperBound...])
        for start in stride(from: 0, to: subscribers.count, by: 16) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for account in subscribers[start..<min(start + 16, subscribers.count)] {
                    tasks.addTask {
                        _ = try await account.connection.invoke(
                            Api.functions.messages.importChatInvite(hash: inviteHash))
                    }
                }
                try await tasks.waitForAll()
            }
        }
        print(String(format: "fan-out: %d accounts signed up and joined in %.1f s", accounts.count, now() - started))

        // Each member's reader notes when each post ("p <n>") arrived.
        let arrivals = Arrivals(members: subscribers.count)
        let readers = subscribers.enumerated().map { index, account in
            Task {
                for await bytes in account.connection.updates {
                    guard case .updates(let all)? = try? Api.Updates(tlBytes: bytes) else { continue }
                    let at = now()
                    for case .updateNewChannelMessage(let new) in all.updates {
                        guard case .message(let message) = new.message, message.message.hasPrefix("p "),
                            let number = Int(message.message.dropFirst(2))
                        else { continue }
                        arrivals.record(member: index, post: number, at: at)
                    }
                }
            }
        }
        defer { for reader in readers { reader.cancel() } }

        var number = 0
        /// Posts once and waits until every member holds it; returns when the call was sent.
        func post() async throws -> (number: Int, sent: Double) {
            number += 1
            let sent = now()
            _ = try await owner.connection.invoke(
                Api.functions.messages.sendMessage(
                    peer: peer, message: "p \(number)", randomId: Int64.random(in: 1...Int64.max)))
            let deadline = now() + 30
            while arrivals.count(post: number) < subscribers.count {
                guard now() < deadline else {
                    throw Accounts.Failure(
                        description: "post \(number) reached \(arrivals.count(post: number)) of \(subscribers.count)")
                }
                try await Task.sleep(nanoseconds: 500_000)
            }
            return (number, sent)
        }
        // Warm-up: the first posts are not measured.
        for _ in 0..<3 { _ = try await post() }
        var results: [Round] = []
        for _ in 0..<rounds {
            var round = Round()
            let cpuBefore = server.cpuSeconds()
            for _ in 0..<posts {
                let (number, sent) = try await post()
                let times = arrivals.times(post: number).map { $0 - sent }
                round.latencies += times
                round.lastMember.append(times.max() ?? .nan)
                round.delivered += times.count
            }
            round.serverCPU = server.cpuSeconds() - cpuBefore
            results.append(round)
        }
        for account in accounts { await account.connection.close() }
        try await group.shutdownGracefully()
        return Result(members: subscribers.count, posts: posts, rounds: results)
    }

    /// When each member received each post.
    final class Arrivals: @unchecked Sendable {
        private let lock = NSLock()
        private var byPost: [Int: [Int: Double]] = [:]
        let members: Int

        init(members: Int) { self.members = members }

        func record(member: Int, post: Int, at: Double) {
            lock.withLock {
                if byPost[post, default: [:]][member] == nil { byPost[post, default: [:]][member] = at }
            }
        }

        func count(post: Int) -> Int { lock.withLock { byPost[post]?.count ?? 0 } }

        func times(post: Int) -> [Double] { lock.withLock { Array((byPost[post] ?? [:]).values) } }
    }
}
