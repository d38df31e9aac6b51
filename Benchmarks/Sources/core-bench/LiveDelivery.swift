import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramCore

/// Live delivery, both receivers beside each other: a Telethon sender (its own process) sends `count` messages 20 ms
/// apart to our account, whose open history view of that chat records when each text first appears, and the same
/// number to a Telethon receiver (another process, updates on, an `events.NewMessage` handler recording when each
/// text arrives). Each round's texts are new ("r<round> live <n>"), so the two sides get the same input and are
/// compared round by round; a round's time is its median latency, and its p99 is kept beside it.
final class LiveDelivery {
    let ours: Account
    let ourPhone: String
    let peerPhone: String
    let sender: PeerProcess
    let receiver: PeerProcess
    let count: Int
    private let seen = LockedValue<[String: Double]>([:])
    private var disposables: [Disposable] = []
    private(set) var oursP99: [Double] = []
    private(set) var peerP99: [Double] = []

    init(
        ours: Account, ourPhone: String, peerPhone: String, world: BenchWorld, count: Int,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        self.ours = ours
        self.ourPhone = ourPhone
        self.peerPhone = peerPhone
        self.count = count
        let common = ["--port", String(world.port), "--pem-file", world.pem]
        sender = try PeerProcess("telethon_live.py", arguments: ["--role", "sender", "--phone", "9996622298"] + common)
        receiver = try PeerProcess(
            "telethon_live.py", arguments: ["--role", "receiver", "--phone", peerPhone] + common)
        let who = try await sender.askOffPool(["whoami": true])
        guard let senderId = (who["user_id"] as? NSNumber)?.int64Value else {
            throw BenchFailure("the Telethon sender did not say who it is: \(who)")
        }
        // Our open view of the sender's chat: the time each text first appears in an emission.
        let seen = self.seen
        disposables.append(
            ours.historyView(peerId: .user(senderId), count: 20).start(next: { history in
                let at = Date().timeIntervalSince1970
                seen.withLock { seen in
                    for item in history.entries where seen[item.message.text] == nil { seen[item.message.text] = at }
                }
            }))
    }

    deinit { for disposable in disposables { disposable.dispose() } }

    static func texts(round: Int, count: Int) -> [String] { (0..<count).map { "r\(round) live \($0)" } }

    /// Median latency of the round, the p99 kept aside; the output names how many of the round's texts arrived.
    private static func summary(_ latencies: [Double]) -> (p50: Double, p99: Double) {
        let sorted = latencies.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }

    private func send(
        round: Int, to phone: String, isolation: isolated (any Actor)? = #isolation
    ) async throws -> [String: Double] {
        let answer = try await sender.askOffPool(["send": count, "prefix": "r\(round) live ", "to": phone])
        guard let sentAt = answer["sent_at"] as? [String: Double], sentAt.count == count else {
            throw BenchFailure("the Telethon sender did not send: \(answer)")
        }
        return sentAt
    }

    func oursRound(_ round: Int, isolation: isolated (any Actor)? = #isolation) async throws -> TimedRun<String> {
        let sentAt = try await send(round: round, to: ourPhone)
        let seen = self.seen
        try await BenchAccounts.waitFor("every live message in our view", timeout: 30) {
            seen.withLock { seen in sentAt.keys.allSatisfy { seen[$0] != nil } }
        }
        let latencies = seen.withLock { seen in sentAt.map { text, sent in seen[text]! - sent } }
        let (p50, p99) = Self.summary(latencies)
        if round > 0 { oursP99.append(p99) }
        return TimedRun(seconds: p50, output: "\(latencies.count) of \(count) messages of round \(round) delivered")
    }

    func peerRound(_ round: Int, isolation: isolated (any Actor)? = #isolation) async throws -> TimedRun<String> {
        let sentAt = try await send(round: round, to: peerPhone)
        let answer = try await receiver.askOffPool(["arrivals": Self.texts(round: round, count: count), "timeout": 30])
        guard let arrivedAt = answer["arrived_at"] as? [String: Double] else {
            throw BenchFailure("the Telethon receiver: \(answer)")
        }
        let latencies = sentAt.compactMap { text, sent in arrivedAt[text].map { $0 - sent } }
        let (p50, p99) = Self.summary(latencies)
        if round > 0 { peerP99.append(p99) }
        return TimedRun(seconds: p50, output: "\(latencies.count) of \(count) messages of round \(round) delivered")
    }
}
