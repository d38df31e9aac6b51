import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramCore

/// Sending through TelegramCore's pending-message manager against tg-server on 127.0.0.1, with Telethon 1.45.0 +
/// cryptg sending the same way in interleaved rounds (BENCHMARKS.md, "Method"): the latency from `enqueue` to the
/// server's message replacing the local one in an open history view (Telethon: `messages.sendMessage` to its answer),
/// and 1,000 messages sent in a burst, one chat, in order (Telethon: the same 1,000 calls one after another, as its
/// `send_message` loop does). Every round sends new texts, and both sides must show the server acknowledging all of
/// them with ids in the order sent. Then 1,000 chat-list avatars through MediaResources from downloaded photos, cold
/// and from the representation cache (no peer).
@main
enum SendBench {
    static var latencySamples: Int { BenchmarkMethod.isCheck ? 30 : 100 }
    static var burst: Int { BenchmarkMethod.isCheck ? 100 : 1_000 }

    static func main() async throws {
        checkCommandLine(
            """
            usage: send-bench

            Sending through TelegramCore's pending-message manager against tg-server on 127.0.0.1, with Telethon 1.45 +
            cryptg sending the same way in interleaved rounds: enqueue-to-view latency, a 1,000-message burst; and
            1,000 chat-list avatars. BENCH_ROUNDS=n sets the rounds; BENCH_CHECK=1 runs one round of a smaller workload.
            Needs `make deps` (the venv with Telethon).
            """)
        printMachine()
        registerTelegramCoreTypes()
        let world = try await BenchWorld(name: "send-bench")
        defer { world.remove() }
        let manager = try AccountManager(rootPath: world.root + "/app", environment: world.environment)
        let ann = try await BenchAccounts.signUp(manager, phone: "9996622501", name: "Ann")
        let ben = try await BenchAccounts.signUp(manager, phone: "9996622502", name: "Ben")
        guard let benId = try await ann.importContact(phone: "9996622502", firstName: "Ben") else {
            throw BenchFailure("Ann could not find Ben")
        }
        ann.start()
        ben.start()

        let telethon = try PeerProcess(
            "telethon_send.py",
            arguments: [
                "--port", String(world.port), "--pem-file", world.pem, "--phone", "9996622503", "--target-phone",
                "9996622502",
            ])
        let sender = Sender(ann: ann, peer: benId)
        var oursP99: [Double] = []
        var peerP99: [Double] = []
        let latency = try await compareInterleavedRounds(
            "one message: enqueue → the server's message in an open view (Telethon: sendMessage → its answer)",
            items: 1, unit: "msg", rounds: 5,
            oursAsync: { round in
                let (run, p99) = try await sender.latencyRound(round, count: latencySamples)
                if round > 0 { oursP99.append(p99) }
                return run
            },
            peerAsync: { round in
                let answer = try await telethon.askOffPool(["latency": latencySamples, "prefix": "r\(round) latency "])
                if round > 0 { peerP99.append((answer["p99"] as? Double) ?? .nan) }
                return TimedRun(
                    seconds: (answer["seconds"] as? Double) ?? .nan,
                    output: (answer["output"] as? String) ?? "\(answer)")
            })
        let burstCost = LockedValue(BurstCost())
        let burstRow = try await compareInterleavedRounds(
            "\(burst.formatted()) messages in a burst, one chat, in order (Telethon: \(burst.formatted()) sendMessage calls "
                + "one after another)", items: Double(burst), unit: "msgs", rounds: 5,
            oursAsync: { round in
                let (cpu, storage) = (processCPUSeconds(), ann.postbox.writeStatistics())
                let batches = ann.stateManager.statistics.batches
                let run = try await sender.burstRound(round, count: burst)
                let (cpuAfter, storageAfter) = (processCPUSeconds(), ann.postbox.writeStatistics())
                if round > 0 {
                    let applied = ann.stateManager.statistics.batches - batches
                    burstCost.withLock {
                        $0.add(
                            messages: burst, processCPU: cpuAfter - cpu, storage: storage, storageAfter: storageAfter,
                            stateBatches: applied)
                    }
                }
                return run
            },
            peerAsync: { round in try await telethon.timedOffPool(["burst": burst, "prefix": "r\(round) burst "]) })
        let avatars = try await ResourceAvatars.run(account: ann)
        await ann.shutdown()
        await ben.shutdown()
        try await world.server.close()

        printTable(
            title: "Sending (tg-server on 127.0.0.1), interleaved rounds", peerName: "Telethon 1.45 + cryptg",
            [burstRow])
        printTable(
            title: "1,000 round 60×60 chat-list avatars from downloaded 640×640 photos (MediaResources)",
            peerName: "cold",
            [
                Comparison(
                    "cold: read, JPEG decode, fill, circle, cache store", ours: avatars.cold, peer: avatars.cold),
                Comparison("from the representation cache", ours: avatars.cached, peer: avatars.cold),
            ])
        print(burstCost.withLock { $0.summary })
        func ms(_ value: Double?) -> Double { (value ?? .nan) * 1000 }
        print(
            String(
                format:
                    "\none message, %d a round: enqueue → the server's message in place of the local one in an open view: p50 %.2f ms (%.2f–%.2f), p99 %.2f ms (median of rounds)",
                latencySamples, ms(latency.ours.seconds), ms(latency.ours.range?.lowerBound),
                ms(latency.ours.range?.upperBound), ms(median(oursP99.sorted()))))
        print(
            String(
                format:
                    "Telethon + cryptg messages.sendMessage → its answer (nothing stored): p50 %.2f ms (%.2f–%.2f), p99 %.2f ms; Telethon's p50 / ours %.2f× (%.2f–%.2f)",
                ms(latency.peer?.seconds), ms(latency.peer?.range?.lowerBound), ms(latency.peer?.range?.upperBound),
                ms(median(peerP99.sorted())), latency.ratio ?? .nan, latency.ratioRange?.lowerBound ?? .nan,
                latency.ratioRange?.upperBound ?? .nan))
    }
}

/// Our side of the send rounds: Ann sends to Ben.
struct Sender {
    let ann: Account
    let peer: PeerId

    /// What the server acknowledged of a round, as `telethon_send.py` describes its own: the count of the round's
    /// messages stored with cloud ids, and whether those ids order the texts as they were sent.
    func acknowledged(prefix: String, count: Int) throws -> String {
        let stored = try ann.postbox.readTransactionSync { tx in
            try tx.earlierMessages(peerId: peer, before: nil, count: 100_000)
        }.filter { $0.id.namespace == Namespaces.Message.cloud && $0.text.hasPrefix(prefix) }
        let texts = stored.sorted { $0.id.id < $1.id.id }.map(\.text)
        let inOrder = texts == (0..<count).map { "\(prefix)\($0)" }
        return "\(stored.count) messages '\(prefix)…' acknowledged, \(inOrder ? "in send order" : "NOT in send order")"
    }

    /// One message at a time: the time from `enqueue` to the open history view showing the server's copy (a cloud
    /// id, found by the message's text, unique in this run: the local copy may be replaced before `enqueue`'s caller
    /// could read its `random_id`). The round's median, and its p99 aside.
    func latencyRound(_ round: Int, count: Int) async throws -> (TimedRun<String>, Double) {
        let replacedAt = LockedValue<[String: Double]>([:])
        let view = ann.historyView(peerId: peer, count: 20).start(next: { view in
            let at = now()
            replacedAt.withLock { seen in
                for entry in view.entries where entry.message.id.namespace == Namespaces.Message.cloud {
                    if seen[entry.message.text] == nil { seen[entry.message.text] = at }
                }
            }
        })
        defer { view.dispose() }
        let prefix = "r\(round) latency "
        var samples: [Double] = []
        for index in 0..<count {
            let text = prefix + String(index)
            let started = now()
            guard try ann.enqueue([EnqueueMessage(text: text)], to: peer).count == 1 else {
                throw BenchFailure("the message was not enqueued")
            }
            try await BenchAccounts.waitFor("message \(index) in the view", timeout: 30) {
                replacedAt.withLock { $0[text] } != nil
            }
            if let at = replacedAt.withLock({ $0[text] }) { samples.append(at - started) }
        }
        samples.sort()
        let run = TimedRun(
            seconds: samples[samples.count / 2], output: try acknowledged(prefix: prefix, count: count))
        return (run, samples[min(samples.count - 1, samples.count * 99 / 100)])
    }

    /// `count` messages enqueued in one call; the time until the server acknowledged the last.
    func burstRound(_ round: Int, count: Int) async throws -> TimedRun<String> {
        let prefix = "r\(round) burst "
        let sentBefore = ann.pendingMessages.sentCount
        let started = now()
        try ann.enqueue((0..<count).map { EnqueueMessage(text: prefix + String($0)) }, to: peer)
        try await BenchAccounts.waitFor("the burst sent", timeout: 300) {
            ann.pendingMessages.sentCount - sentBefore >= count
        }
        let seconds = now() - started
        guard ann.pendingMessages.failedCount == 0 else {
            throw BenchFailure("\(ann.pendingMessages.failedCount) messages failed")
        }
        return TimedRun(seconds: seconds, output: try acknowledged(prefix: prefix, count: count))
    }
}

/// What our burst rounds cost per sent message (the warm-up round left out): the whole process's CPU (Ann's and
/// Ben's accounts and the in-process tg-server together), and Ann's Postbox write transactions, their writer-queue
/// time and that thread's CPU: the storage cost of a sent message.
struct BurstCost {
    var messages = 0
    var processCPU = 0.0
    var transactions = 0
    var storageSeconds = 0.0
    var storageCPU = 0.0
    /// Update batches Ann's state manager applied (each one write transaction).
    var stateBatches = 0

    mutating func add(
        messages: Int, processCPU: Double, storage: PostboxWriteStatistics, storageAfter: PostboxWriteStatistics,
        stateBatches: Int
    ) {
        self.stateBatches += stateBatches
        self.messages += messages
        self.processCPU += processCPU
        transactions += storageAfter.transactions - storage.transactions
        storageSeconds += storageAfter.seconds - storage.seconds
        storageCPU += storageAfter.cpuSeconds - storage.cpuSeconds
    }

    var summary: String {
        let count = Double(max(1, messages))
        return String(
            format:
                "\nburst, per sent message (%d messages in the timed rounds): process CPU %.0f µs (both accounts and "
                + "the in-process tg-server); Ann's Postbox: %.2f write transactions, %.0f µs on the writer queue, "
                + "%.0f µs of its CPU; %.2f of those transactions are update batches of the state manager",
            messages, processCPU / count * 1e6, Double(transactions) / count, storageSeconds / count * 1e6,
            storageCPU / count * 1e6, Double(stateBatches) / count)
    }
}
