import BenchmarkSupport
import CryptoUtils
import Foundation
import TLRuntime
import TelegramApi

/// TL and crypto benchmarks: AES-256-IGE against cryptg's IGE and against dependent single-block AES-NI (the limit
/// of any chained mode), and serializing/parsing a typical `message` against Telethon 1.45.0 and against a
/// hand-written decoder of the same bytes (the limit), peers measured in the same run through the repository's venv.
/// `tl-bench aes`, `tl-bench message` or `tl-bench pq` runs one part.
@main
enum TLBench {
    static func main() throws {
        checkCommandLine(
            "usage: tl-bench [aes] [message] [pq]   (no argument: all three; prints Markdown ratio tables)",
            accepted: ["aes", "message", "pq"])
        let only = Set(CommandLine.arguments.dropFirst())
        printMachine()
        if only.isEmpty || only.contains("aes") { try AESBench.run() }
        if only.isEmpty || only.contains("message") { try message() }
        if only.isEmpty || only.contains("pq") { pq() }
    }

    /// The same message as Benchmarks/scripts/telethon_message_bench.py builds.
    static func typicalMessage() -> Api.Message {
        let text = "Meet at 19:00 by the old bridge? Bring the photos from Saturday, and the charger \u{1F50B} please!"
        return .message(
            .init(
                out: true, id: 48213, fromId: .peerUser(.init(userId: 123_456_789)),
                peerId: .peerUser(.init(userId: 777_000)),
                replyTo: .messageReplyHeader(.init(replyToMsgId: 48210)), date: 1_700_000_000, message: text,
                entities: [
                    .messageEntityBold(.init(offset: 0, length: 4)),
                    .messageEntityTextUrl(.init(offset: 15, length: 10, url: "https://maps.example/bridge")),
                ],
                editDate: 1_700_000_060))
    }

    /// TL `message` against Telethon, both sides allocating a fresh result per call (Telethon's `bytes(message)` is
    /// a new bytes object; ours `serialized()`, a new array), in interleaved rounds with Telethon kept running
    /// (`PeerProcess`); each round's last bytes are compared. Our serialization into a reused `TLWriter` — what the
    /// session does — and the hand-written decoder (the limit) are measured beside it.
    static func message() throws {
        let message = typicalMessage()
        let bytes = message.serialized()
        let iterations = 200_000
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let telethon = try PeerProcess("telethon_message_bench.py")
        let peerBytes = try telethon.ask(["op": "bytes"])["hex"] as? String
        precondition(
            peerBytes == hex(bytes), "the Swift and Telethon messages differ; fix the benchmark before comparing")
        func peer(_ op: String) -> TimedRun<String> {
            let answer = try! telethon.ask(["op": op, "count": iterations])
            return TimedRun(
                seconds: (answer["seconds"] as! NSNumber).doubleValue, output: answer["hex"] as? String ?? "")
        }
        let serialize = compareInterleaved(
            "serialize (a fresh result each call)", items: Double(iterations), unit: "ops", goal: "≥ 50×",
            oursTimed: {
                var last: [UInt8] = []
                let run = timedRun {
                    for _ in 0..<iterations { last = message.serialized() }
                }
                return TimedRun(seconds: run.seconds, output: hex(last))
            }, peerTimed: { peer("serialize") })
        let parse = compareInterleaved(
            "parse", items: Double(iterations), unit: "ops", goal: "≥ 50×, ≤ 0.5 µs",
            oursTimed: {
                var last: Api.Message?
                let run = timedRun {
                    for _ in 0..<iterations {
                        var reader = TLReader(bytes)
                        last = try! Api.Message.parse(&reader)
                    }
                }
                return TimedRun(seconds: run.seconds, output: hex(last?.serialized() ?? []))
            }, peerTimed: { peer("parse") })
        // The limit: the hand-written decoder of the same bytes into the same value; and ours into a reused buffer.
        precondition(
            HandWrittenMessageDecoder.decode(bytes)?.serialized() == bytes, "the hand-written decoder is wrong")
        let limit = compareInterleaved(
            "parse", items: Double(iterations), unit: "ops",
            ours: {
                var last: Api.Message?
                for _ in 0..<iterations {
                    var reader = TLReader(bytes)
                    last = try! Api.Message.parse(&reader)
                }
                return last?.serialized() ?? []
            },
            peer: {
                var last: Api.Message?
                for _ in 0..<iterations { last = HandWrittenMessageDecoder.decode(bytes)! }
                return last?.serialized() ?? []
            })
        let reused = measure("serialize into a reused TLWriter", items: Double(iterations), unit: "ops") {
            var writer = TLWriter(capacity: 256)
            for _ in 0..<iterations {
                writer.reset()
                message.serialize(&writer)
            }
            blackHole(writer.count)
        }
        printTable(
            title: "TL `message` (\(bytes.count) bytes; identical bytes on both sides)", peerName: "Telethon 1.45.0",
            [serialize, parse])
        printTable(
            title: "TL `message` parse against its limit", peerName: "hand-written decoder, same bytes → same value",
            [limit])
        print(
            String(
                format:
                    "per message: ours %.3f µs serialize (fresh array), %.3f µs into a reused TLWriter, %.3f µs parse; "
                    + "hand-written parse %.3f µs; Telethon %.2f µs serialize, %.2f µs parse (medians)",
                serialize.ours.seconds / Double(iterations) * 1e6, reused.seconds / Double(iterations) * 1e6,
                parse.ours.seconds / Double(iterations) * 1e6, limit.peer!.seconds / Double(iterations) * 1e6,
                serialize.peer!.seconds / Double(iterations) * 1e6, parse.peer!.seconds / Double(iterations) * 1e6))
    }

    static func pq() {
        let pq: UInt64 = 4_294_967_291 * 4_294_967_279
        let count = 200
        let timing = measure("pq", items: Double(count), unit: "ops", runs: 3) {
            for _ in 0..<count { blackHole(PQFactorization.factorize(pq)) }
        }
        print(
            String(
                format: "\nPQ (Pollard–Brent), 64-bit pq with two 32-bit primes: %.3f ms per factorization",
                timing.seconds / Double(count) * 1000))
    }
}
