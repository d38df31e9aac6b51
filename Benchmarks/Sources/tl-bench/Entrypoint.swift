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

    static func message() throws {
        let message = typicalMessage()
        let bytes = message.serialized()
        let iterations = 200_000
        let serialize = measure("serialize", items: Double(iterations), unit: "ops") {
            var writer = TLWriter(capacity: 256)
            for _ in 0..<iterations {
                writer.reset()
                message.serialize(&writer)
            }
            blackHole(writer.count)
        }
        let parse = measure("parse", items: Double(iterations), unit: "ops") {
            for _ in 0..<iterations {
                var reader = TLReader(bytes)
                blackHole(try! Api.Message.parse(&reader))
            }
        }
        // The limit: the hand-written decoder of the same bytes into the same value.
        precondition(
            HandWrittenMessageDecoder.decode(bytes)?.serialized() == bytes, "the hand-written decoder is wrong")
        let handWritten = measure("hand-written parse", items: Double(iterations), unit: "ops") {
            for _ in 0..<iterations {
                blackHole(HandWrittenMessageDecoder.decode(bytes)!)
            }
        }
        let telethon = try runTelethon()
        let sameBytes = (telethon["hex"] as? String) == bytes.map { String(format: "%02x", $0) }.joined()
        precondition(sameBytes, "the Swift and Telethon messages differ; fix the benchmark before comparing")
        let serializeMicros = (telethon["serialize_us"] as! NSNumber).doubleValue
        let parseMicros = (telethon["parse_us"] as! NSNumber).doubleValue
        let peerSerialize = Measurement(
            name: "telethon serialize", seconds: serializeMicros / 1e6, items: 1, unit: "ops")
        let peerParse = Measurement(name: "telethon parse", seconds: parseMicros / 1e6, items: 1, unit: "ops")
        printTable(
            title: "TL `message` (\(bytes.count) bytes; identical bytes on both sides)", peerName: "Telethon 1.45.0",
            [
                Comparison("serialize", ours: serialize, peer: peerSerialize, goal: "≥ 50×"),
                Comparison("parse", ours: parse, peer: peerParse, goal: "≥ 50×, ≤ 0.5 µs"),
            ])
        printTable(
            title: "TL `message` parse against its limit", peerName: "hand-written decoder, same bytes → same value",
            [
                Comparison("parse", ours: parse, peer: handWritten)
            ])
        print(
            String(
                format:
                    "per message: ours %.3f µs serialize, %.3f µs parse; hand-written parse %.3f µs; Telethon %.2f µs, %.2f µs",
                serialize.seconds / Double(iterations) * 1e6, parse.seconds / Double(iterations) * 1e6,
                handWritten.seconds / Double(iterations) * 1e6, serializeMicros, parseMicros))
    }

    static func runTelethon() throws -> [String: Any] {
        return try runBenchmarkScript("telethon_message_bench.py", arguments: [])
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
