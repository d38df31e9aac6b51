import BenchmarkSupport
import CoreBenchSupport
import CryptoUtils
import Foundation
import NIOPosix
import Network
import Postbox
import ServerBenchSupport
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import TestVectors

/// Moving a 100 MB file through a release tg-server process on 127.0.0.1: our `MultipartUpload` and `MediaFetcher`
/// (parts in flight on the media session, into MediaBox) against Telethon 1.45 with cryptg (its fastest setup) moving
/// the same file in the same run, with our AES-IGE throughput beside them as the single-connection limit. The server
/// is a process of its own, so each client's CPU per MB is measured apart from it: ours with `getrusage` of this
/// process, Telethon's by its script.
@main
enum TransferBench {
    static let size = 100 * 1024 * 1024

    static func main() async throws {
        checkCommandLine(
            """
            usage: transfer-bench

            A 100 MB file through a release tg-server process on 127.0.0.1: MultipartUpload and MediaFetcher against
            Telethon 1.45 with cryptg moving the same file in the same run, each client's CPU per MB apart from the
            server's, with AES-IGE throughput as the limit. Needs `make deps` and a release tg-server (TG_SERVER_BIN or
            .build/release/tg-server).
            """)
        printMachine()
        registerTelegramCoreTypes()
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-bench-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (pem, port) = (root + "/server.pem", server.port)
        try server.writePublicKeyPEM(to: pem)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        var endpoints: [Int32: MTProtoConnection.Endpoint] = [:]
        for (dc, dcPort) in server.ports { endpoints[dc] = .init(host: "127.0.0.1", port: dcPort, dcId: dc) }
        let manager = try AccountManager(
            rootPath: root + "/app",
            environment: NetworkEnvironment(
                datacenters: endpoints, defaultMainDc: 2, publicKeys: [server.publicKey], group: group))
        let ann = try await BenchAccounts.signUp(manager, phone: "9996622401", name: "Ann")

        let file = root + "/payload.bin"
        let digest = try writePayload(size, to: file)

        // Ours: upload in parts, send to Saved Messages as a document, fetch it back into MediaBox; each round a new
        // document (nothing comes from the previous round's MediaBox copy).
        var downloaded = Data()
        func oursRound(_ round: Int) async throws -> Times {
            let (uploadStart, uploadCPU) = (now(), processCPUSeconds())
            let input = try await MultipartUpload.upload(network: ann.network, path: file, name: "payload.bin")
            let (uploadSeconds, uploadCPUSeconds) = (now() - uploadStart, processCPUSeconds() - uploadCPU)
            let sent = try await ann.network.request(
                Api.functions.messages.sendMedia(
                    peer: .inputPeerSelf,
                    media: .inputMediaUploadedDocument(
                        .init(forceFile: true, file: input, mimeType: "application/octet-stream", attributes: [])),
                    message: "", randomId: Int64(round + 1)))
            let document = try BenchFetch.sentDocument(in: sent)
            let fetcher = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox)
            let (downloadStart, downloadCPU) = (now(), processCPUSeconds())
            let path = try await BenchFetch.completedPath(fetcher.fetch(document.resource, size: Int64(size)))
            let (downloadSeconds, downloadCPUSeconds) = (now() - downloadStart, processCPUSeconds() - downloadCPU)
            downloaded = try Data(contentsOf: URL(fileURLWithPath: path))
            guard hex(Digest.sha256([UInt8](downloaded))) == digest else {
                BenchmarkMethod.differentWork("transfer", ours: "other bytes than the file", peer: digest)
            }
            return Times(
                up: uploadSeconds, down: downloadSeconds, upCPU: uploadCPUSeconds, downCPU: downloadCPUSeconds,
                cryptg: true)
        }

        // Telethon moving the same file: its own loops (`parallel` 0), and its fastest setup, 4 parts in flight.
        func telethonRound(parallel: Int) throws -> Times {
            let telethon = try runBenchmarkScript(
                "telethon_transfer.py",
                arguments: [
                    "--port", String(port), "--pem-file", pem, "--phone", "9996622402", "--file", file,
                    "--parallel", String(parallel),
                ])
            guard (telethon["sha256"] as? String) == digest else {
                BenchmarkMethod.differentWork("transfer", ours: digest, peer: "Telethon: other bytes than the file")
            }
            return Times(
                up: telethon["upload_seconds"] as? Double ?? .nan,
                down: telethon["download_seconds"] as? Double ?? .nan,
                upCPU: telethon["upload_cpu_seconds"] as? Double ?? .nan,
                downCPU: telethon["download_cpu_seconds"] as? Double ?? .nan,
                cryptg: telethon["cryptg"] as? Bool == true)
        }

        // Interleaved rounds (BENCHMARKS.md, "Method"): ours first in even rounds, Telethon's two setups first in odd.
        var oursTimes: [Times] = []
        var defaultTimes: [Times] = []
        var parallelTimes: [Times] = []
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
        try await group.shutdownGracefully()

        printTable(
            title: "File transfer, 100 MB through a tg-server process (127.0.0.1), against Telethon's own loops",
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
        // Each client's CPU per MB moved (the server is another process): the same work, whatever the load.
        func cpuPerMB(_ times: [Times], _ key: KeyPath<Times, Double>) -> String {
            let sorted = times.map { $0[keyPath: key] / megabytes * 1000 }.sorted()
            return String(format: "%.2f ms (%.2f–%.2f)", median(sorted), sorted.first ?? .nan, sorted.last ?? .nan)
        }
        print("\n### Client CPU per MB (user + system; the server is another process)\n")
        print("| client | upload | download |")
        print("|---|---:|---:|")
        for (name, times) in [
            ("ours: MultipartUpload / MediaFetcher into MediaBox", oursTimes),
            ("Telethon 1.45 + cryptg: upload_file / download_media", defaultTimes),
            ("Telethon 1.45 + cryptg, 4 parts in flight", parallelTimes),
        ] {
            print("| \(name) | \(cpuPerMB(times, \.upCPU)) | \(cpuPerMB(times, \.downCPU)) |")
        }
        print(
            String(
                format:
                    "\nAES-256-IGE (OpenSSL, hardware AES: %@): %.0f MB/s — the single-connection limit for one direction; "
                    + "cryptg in Telethon's runs: %@",
                AESIGE.usesHardwareAES ? "yes" : "no", aes.throughput,
                defaultTimes.allSatisfy(\.cryptg) && parallelTimes.allSatisfy(\.cryptg) ? "on" : "OFF"))
    }

    /// One side's round: seconds and its own process's CPU seconds for the upload and the download.
    struct Times {
        var up: Double
        var down: Double
        var upCPU: Double
        var downCPU: Double
        var cryptg: Bool
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
