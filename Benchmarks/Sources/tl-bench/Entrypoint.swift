import BenchmarkSupport
import COpenSSLPeer
import CryptoUtils
import Foundation
import TLRuntime
import TelegramApi

/// TL and crypto benchmarks: AES-256-IGE against OpenSSL's AES-256-ECB on the same 16 MiB (serial IGE cannot beat
/// the block cipher, so ECB is the ceiling), and serializing/parsing a typical `message` against Telethon 1.45.0
/// measured in the same run through the repository's venv.
@main
enum TLBench {
    static func main() throws {
        printMachine()
        try aes()
        try message()
        pq()
    }

    static func aes() throws {
        let size = 16 << 20
        var state: UInt64 = 0x5151
        let data = (0..<size).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let key = Array(data[0..<32]), iv = Array(data[32..<64])
        var output = [UInt8](repeating: 0, count: size)
        let megabytes = Double(size) / 1_048_576
        let encrypt = measure("ige encrypt", items: megabytes, unit: "MB") {
            data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    try! AESIGE.crypt(input, into: out, key: key, iv: iv, encrypt: true)
                }
            }
        }
        let ciphertext = output
        let decrypt = measure("ige decrypt", items: megabytes, unit: "MB") {
            ciphertext.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    try! AESIGE.crypt(input, into: out, key: key, iv: iv, encrypt: false)
                }
            }
        }
        precondition(output == data, "IGE decrypt(encrypt(x)) != x")
        let reference = measure("openssl AES_ige_encrypt", items: megabytes, unit: "MB", runs: 3) {
            blackHole(try! AESIGE.referenceCrypt(data, key: key, iv: iv, encrypt: true))
        }
        let ecb = measure("openssl ecb", items: megabytes, unit: "MB") {
            let context = EVP_CIPHER_CTX_new()
            defer { EVP_CIPHER_CTX_free(context) }
            EVP_EncryptInit_ex(context, EVP_aes_256_ecb(), nil, key, nil)
            EVP_CIPHER_CTX_set_padding(context, 0)
            var written: Int32 = 0
            data.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    _ = EVP_EncryptUpdate(context, out.baseAddress, &written, input.baseAddress, Int32(size))
                }
            }
        }
        // ECB one block at a time, each block chained on the previous output as IGE must: OpenSSL's block speed
        // when blocks cannot be pipelined (the serial ceiling for a chained mode built on OpenSSL's ECB).
        let serialBytes = 4 << 20
        let serialEcb = measure("openssl ecb, serial blocks", items: Double(serialBytes) / 1_048_576, unit: "MB") {
            let context = EVP_CIPHER_CTX_new()
            defer { EVP_CIPHER_CTX_free(context) }
            EVP_EncryptInit_ex(context, EVP_aes_256_ecb(), nil, key, nil)
            EVP_CIPHER_CTX_set_padding(context, 0)
            var block = [UInt8](repeating: 0, count: 16)
            var written: Int32 = 0
            data.withUnsafeBufferPointer { input in
                block.withUnsafeMutableBufferPointer { chained in
                    var offset = 0
                    while offset < serialBytes {
                        for i in 0..<16 { chained[i] ^= input[offset + i] }
                        _ = EVP_EncryptUpdate(context, chained.baseAddress, &written, chained.baseAddress, 16)
                        offset += 16
                    }
                }
            }
            blackHole(block)
        }
        printTable(title: "AES-256 (16 MiB, \(AESIGE.usesHardwareAES ? "AES-NI" : "no AES-NI"))", peerName: "OpenSSL AES-256-ECB (bulk)", [
            Comparison("IGE encrypt", ours: encrypt, peer: ecb, goal: "≥ 0.8×"),
            Comparison("IGE decrypt", ours: decrypt, peer: ecb, goal: "≥ 0.8×"),
            Comparison("OpenSSL AES_ige_encrypt (reference)", ours: reference, peer: ecb),
        ])
        printTable(title: "AES-256 serial (each block depends on the previous one)", peerName: "OpenSSL ECB, one chained block per call", [
            Comparison("IGE encrypt", ours: encrypt, peer: serialEcb, goal: "≥ 0.8×"),
            Comparison("IGE decrypt", ours: decrypt, peer: serialEcb, goal: "≥ 0.8×"),
        ])
    }

    /// The same message as Benchmarks/scripts/telethon_message_bench.py builds.
    static func typicalMessage() -> Api.Message {
        let text = "Meet at 19:00 by the old bridge? Bring the photos from Saturday, and the charger \u{1F50B} please!"
        return .message(.init(
            out: true, id: 48213, fromId: .peerUser(.init(userId: 123_456_789)), peerId: .peerUser(.init(userId: 777_000)),
            replyTo: .messageReplyHeader(.init(replyToMsgId: 48210)), date: 1_700_000_000, message: text,
            entities: [.messageEntityBold(.init(offset: 0, length: 4)),
                       .messageEntityTextUrl(.init(offset: 15, length: 10, url: "https://maps.example/bridge"))],
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
        let telethon = try runTelethon()
        let sameBytes = (telethon["hex"] as? String) == bytes.map { String(format: "%02x", $0) }.joined()
        precondition(sameBytes, "the Swift and Telethon messages differ; fix the benchmark before comparing")
        let serializeMicros = (telethon["serialize_us"] as! NSNumber).doubleValue
        let parseMicros = (telethon["parse_us"] as! NSNumber).doubleValue
        let peerSerialize = Measurement(name: "telethon serialize", seconds: serializeMicros / 1e6, items: 1, unit: "ops")
        let peerParse = Measurement(name: "telethon parse", seconds: parseMicros / 1e6, items: 1, unit: "ops")
        printTable(title: "TL `message` (\(bytes.count) bytes; identical bytes on both sides)", peerName: "Telethon 1.45.0", [
            Comparison("serialize", ours: serialize, peer: peerSerialize, goal: "≥ 20×"),
            Comparison("parse", ours: parse, peer: peerParse, goal: "≥ 20×"),
        ])
        print(String(format: "per message: ours %.3f µs serialize, %.3f µs parse; Telethon %.2f µs, %.2f µs",
                     serialize.seconds / Double(iterations) * 1e6, parse.seconds / Double(iterations) * 1e6,
                     serializeMicros, parseMicros))
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
        print(String(format: "\nPQ (Pollard–Brent), 64-bit pq with two 32-bit primes: %.3f ms per factorization",
                     timing.seconds / Double(count) * 1000))
    }
}
