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
import TestVectors

/// Moving a 100 MB file through tg-server on 127.0.0.1: our `MultipartUpload` and `MediaFetcher` (parts in flight on
/// the media session, into MediaBox) against Telethon 1.45 with cryptg (its fastest setup) moving the same file in
/// the same run, with our AES-IGE throughput beside them as the single-connection limit (every byte is encrypted
/// once by the sender and decrypted once by the receiver, both in this process for our side).
@main
enum TransferBench {
    static let size = 100 * 1024 * 1024

    static func main() async throws {
        checkCommandLine(
            """
            usage: transfer-bench

            A 100 MB file through tg-server on 127.0.0.1: MultipartUpload and MediaFetcher against Telethon 1.45 with cryptg
            moving the same file in the same run, with AES-IGE throughput as the limit. Needs `make deps`.
            """)
        printMachine()
        registerTelegramCoreTypes()
        let world = try await BenchWorld(name: "transfer-bench")
        defer { world.remove() }
        let (root, pem, port) = (world.root, world.pem, world.port)
        let manager = try AccountManager(rootPath: root + "/app", environment: world.environment)
        let ann = try await BenchAccounts.signUp(manager, phone: "9996622401", name: "Ann")

        let file = root + "/payload.bin"
        let digest = try writePayload(size, to: file)

        // Ours: upload in parts, send to Saved Messages as a document, fetch it back into MediaBox; each round a new
        // document (nothing comes from the previous round's MediaBox copy).
        var downloaded = Data()
        func oursRound(_ round: Int) async throws -> (up: Double, down: Double) {
            let uploadStart = now()
            let input = try await MultipartUpload.upload(network: ann.network, path: file, name: "payload.bin")
            let uploadSeconds = now() - uploadStart
            let sent = try await ann.network.request(
                Api.functions.messages.sendMedia(
                    peer: .inputPeerSelf,
                    media: .inputMediaUploadedDocument(
                        .init(forceFile: true, file: input, mimeType: "application/octet-stream", attributes: [])),
                    message: "", randomId: Int64(round + 1)))
            let document = try BenchFetch.sentDocument(in: sent)
            let fetcher = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox)
            let downloadStart = now()
            let path = try await BenchFetch.completedPath(fetcher.fetch(document.resource, size: Int64(size)))
            let downloadSeconds = now() - downloadStart
            downloaded = try Data(contentsOf: URL(fileURLWithPath: path))
            guard hex(Digest.sha256([UInt8](downloaded))) == digest else {
                BenchmarkMethod.differentWork("transfer", ours: "other bytes than the file", peer: digest)
            }
            return (uploadSeconds, downloadSeconds)
        }

        // Telethon moving the same file: its own loops (`parallel` 0), and its fastest setup, 4 parts in flight.
        func telethonRound(parallel: Int) throws -> (up: Double, down: Double, cryptg: Bool) {
            let telethon = try runBenchmarkScript(
                "telethon_transfer.py",
                arguments: [
                    "--port", String(port), "--pem-file", pem, "--phone", "9996622402", "--file", file,
                    "--parallel", String(parallel),
                ])
            guard (telethon["sha256"] as? String) == digest else {
                BenchmarkMethod.differentWork("transfer", ours: digest, peer: "Telethon: other bytes than the file")
            }
            return (
                telethon["upload_seconds"] as? Double ?? .nan, telethon["download_seconds"] as? Double ?? .nan,
                telethon["cryptg"] as? Bool == true
            )
        }

        // Interleaved rounds (BENCHMARKS.md, "Method"): ours first in even rounds, Telethon's two setups first in odd.
        var oursTimes: [(up: Double, down: Double)] = []
        var defaultTimes: [(up: Double, down: Double, cryptg: Bool)] = []
        var parallelTimes: [(up: Double, down: Double, cryptg: Bool)] = []
        for round in 0..<BenchmarkMethod.rounds(3) {
            if round % 2 == 0 {
                oursTimes.append(try await oursRound(round))
                defaultTimes.append(try telethonRound(parallel: 0))
                parallelTimes.append(try telethonRound(parallel: 4))
            } else {
                defaultTimes.append(try telethonRound(parallel: 0))
                parallelTimes.append(try telethonRound(parallel: 4))
                oursTimes.append(try await oursRound(round))
            }
        }
        let megabytes = Double(size) / 1_048_576
        func measured(_ name: String, _ times: [Double]) -> BenchmarkSupport.Measurement {
            BenchmarkSupport.Measurement(name: name, times: times, items: megabytes, unit: "MB")
        }
        func row(_ name: String, _ ours: [Double], _ peer: [Double], goal: String) -> Comparison {
            Comparison(
                name, ours: measured("ours", ours), peer: measured("peer", peer),
                roundRatios: zip(ours, peer).map { $1 / $0 }, goal: goal)
        }

        // The limit of one connection: AES-256-IGE over the same bytes (one direction's encryption).
        let key = [UInt8](repeating: 7, count: 32)
        let iv = [UInt8](repeating: 9, count: 32)
        let block = [UInt8](downloaded.prefix(16 * 1024 * 1024))
        let aes = measure("AES-IGE", items: Double(block.count) / 1_048_576, unit: "MB", runs: 3) {
            blackHole(try? AESIGE.encrypt(block, key: key, iv: iv))
        }
        await ann.shutdown()
        try await world.server.close()

        printTable(
            title: "File transfer, 100 MB through tg-server (127.0.0.1), against Telethon's own loops",
            peerName: "Telethon 1.45 + cryptg: upload_file / download_media",
            [
                row(
                    "upload: MultipartUpload (512 KB big-file parts, 4 in flight) vs client.upload_file",
                    oursTimes.map(\.up), defaultTimes.map(\.up), goal: "≥ 3×"),
                row(
                    "download: MediaFetcher (512 KB windows, 4 in flight, into MediaBox) vs client.download_media",
                    oursTimes.map(\.down), defaultTimes.map(\.down), goal: "≥ 3×"),
            ])
        printTable(
            title: "The same, against Telethon's fastest setup: 512 KB parts, 4 in flight, through its raw API",
            peerName: "Telethon 1.45 + cryptg, 4 parts in flight",
            [
                row("upload, both 4 parts in flight", oursTimes.map(\.up), parallelTimes.map(\.up), goal: "≥ 3×"),
                row(
                    "download, both 4 windows in flight", oursTimes.map(\.down), parallelTimes.map(\.down),
                    goal: "≥ 3×"),
            ])
        print(
            String(
                format:
                    "\nAES-256-IGE (OpenSSL, hardware AES: %@): %.0f MB/s — the single-connection limit for one direction; "
                    + "cryptg in Telethon's runs: %@",
                AESIGE.usesHardwareAES ? "yes" : "no", aes.throughput,
                defaultTimes.allSatisfy(\.cryptg) && parallelTimes.allSatisfy(\.cryptg) ? "on" : "OFF"))
    }

    /// Writes `count` pseudo-random bytes (a xorshift stream: incompressible, reproducible); returns their SHA-256.
    static func writePayload(_ count: Int, to path: String) throws -> String {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return hex(Digest.sha256(bytes))
    }
}
