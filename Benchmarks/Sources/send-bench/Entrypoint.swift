import BenchmarkSupport
import CoreBenchSupport
import Foundation
import Postbox
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramCore

/// Sending through TelegramCore's pending-message manager against tg-server on 127.0.0.1, with Telethon 1.45.0
/// sending the same way in the same run: the latency from `enqueue` to the server's message replacing the local one
/// in an open history view (Telethon: `messages.sendMessage` to its answer), and 1,000 messages sent in a burst, one
/// chat, in order (Telethon: the same 1,000 calls one after another, as its `send_message` loop does); and 1,000
/// chat-list avatars through MediaResources from downloaded photos, cold and from the representation cache.
@main
enum SendBench {
    static let latencySamples = 300
    static let burst = 1_000

    static func main() async throws {
        checkCommandLine(
            """
            usage: send-bench

            Sending through TelegramCore's pending-message manager against tg-server on 127.0.0.1, with Telethon 1.45 sending
            the same way in the same run: enqueue-to-view latency, a 1,000-message burst, and 1,000 chat-list avatars.
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

        let latency = try await enqueueToViewLatency(ann: ann, peer: benId)
        let burstRate = try await burstSend(ann: ann, peer: benId)
        let avatars = try await ResourceAvatars.run(account: ann)

        let telethon = try runBenchmarkScript(
            "telethon_send.py",
            arguments: [
                "--port", String(world.port), "--pem-file", world.pem, "--phone", "9996622503", "--target-phone",
                "9996622502",
                "--latency-count", String(latencySamples), "--burst", String(burst),
            ])
        let telethonP50 = (telethon["latency_p50"] as? Double) ?? .nan
        let telethonP99 = (telethon["latency_p99"] as? Double) ?? .nan
        let telethonBurst = BenchmarkSupport.Measurement(
            name: "telethon", seconds: (telethon["burst_seconds"] as? Double) ?? .nan, items: Double(burst),
            unit: "msgs")
        await ann.shutdown()
        await ben.shutdown()
        try await world.server.close()

        printTable(
            title: "Sending (tg-server on 127.0.0.1)", peerName: "Telethon 1.45",
            [
                Comparison("1,000 messages in a burst, one chat, in order", ours: burstRate, peer: telethonBurst)
            ])
        printTable(
            title: "1,000 round 60×60 chat-list avatars from downloaded 640×640 photos (MediaResources)",
            peerName: "cold",
            [
                Comparison(
                    "cold: read, JPEG decode, fill, circle, cache store", ours: avatars.cold, peer: avatars.cold),
                Comparison("from the representation cache", ours: avatars.cached, peer: avatars.cold),
            ])
        print(
            String(
                format:
                    "\nenqueue → the server's message in place of the local one in an open view: p50 %.2f ms, p99 %.2f ms over %d",
                latency.p50 * 1000, latency.p99 * 1000, latency.count))
        print(
            String(
                format:
                    "Telethon messages.sendMessage → its answer (nothing stored): p50 %.2f ms, p99 %.2f ms; ours takes %.2f× as long at p50",
                telethonP50 * 1000, telethonP99 * 1000, latency.p50 / telethonP50))
    }

    struct Latency {
        let p50: Double
        let p99: Double
        let count: Int
    }

    /// One message at a time: the time from `enqueue` to the open history view showing the server's copy (a cloud id,
    /// found by the message's text, which is unique in this run: the local copy may be replaced before `enqueue`'s
    /// caller could read its `random_id`).
    static func enqueueToViewLatency(ann: Account, peer: PeerId) async throws -> Latency {
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
        var samples: [Double] = []
        for index in 0..<(latencySamples + 20) {
            let text = "latency \(index)"
            let started = now()
            guard try ann.enqueue([EnqueueMessage(text: text)], to: peer).count == 1 else {
                throw BenchFailure("the message was not enqueued")
            }
            try await BenchAccounts.waitFor("message \(index) in the view", timeout: 30) {
                replacedAt.withLock { $0[text] } != nil
            }
            // The first 20 warm the connection and the view up.
            if index >= 20, let at = replacedAt.withLock({ $0[text] }) { samples.append(at - started) }
        }
        samples.sort()
        return Latency(
            p50: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)],
            count: samples.count)
    }

    /// `burst` messages enqueued in one call; the time until the server acknowledged the last.
    static func burstSend(ann: Account, peer: PeerId) async throws -> BenchmarkSupport.Measurement {
        let sentBefore = ann.pendingMessages.sentCount
        let started = now()
        try ann.enqueue((0..<burst).map { EnqueueMessage(text: "burst \($0)") }, to: peer)
        try await BenchAccounts.waitFor("the burst sent", timeout: 300) {
            ann.pendingMessages.sentCount - sentBefore >= burst
        }
        let seconds = now() - started
        guard ann.pendingMessages.failedCount == 0 else {
            throw BenchFailure("\(ann.pendingMessages.failedCount) messages failed")
        }
        return BenchmarkSupport.Measurement(name: "burst", seconds: seconds, items: Double(burst), unit: "msgs")
    }
}
