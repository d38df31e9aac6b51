import BenchmarkSupport
import CoreBenchSupport
import Foundation
import MediaBox
import MediaResources
import NIOPosix
import Network
import Postbox
import ServerBenchSupport
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import VideoBinding

/// Time to a video's first frame through a release tg-server in its own process on 127.0.0.1: streamed
/// (`StreamedVideo`: decode from what MediaBox holds, fetch the 512 KB windows the decode asks for, decode again)
/// against the whole download first (`MediaFetcher.fetch`, 512 KB windows, 4 in flight, into MediaBox), then the
/// first frame decoded from the file. The video is a ~50 MB faststart H.264 file made by ffmpeg at the start. Both
/// start each round from an empty MediaBox and must give the same frame (pixels and time).
@main
enum StreamBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: stream-bench

            A ~50 MB faststart H.264 video (40 s of 1280×720 at 10 Mbit/s, made by ffmpeg) uploaded to a release tg-server
            process, then its first frame: streamed (StreamedVideo) against the whole download first (MediaFetcher.fetch,
            then VideoDecoder). Needs `make deps` and a release tg-server (TG_SERVER_BIN or .build/release/tg-server).
            """)
        printMachine()
        registerTelegramCoreTypes()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stream-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let video = scratch.appendingPathComponent("video.mp4")
        // `make bench-check` (one round, both frames compared) takes 8 s of the same video, about 10 MB.
        let seconds = BenchmarkMethod.isCheck ? "8" : "40"
        try FFmpegCommand.run([
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25", "-f", "lavfi", "-i", "sine=frequency=440", "-t",
            seconds, "-vf", "noise=alls=12:allf=t", "-c:v", "libx264", "-preset", "veryfast", "-b:v", "10M", "-maxrate",
            "10M", "-bufsize", "20M", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags",
            "+faststart", video.path,
        ])
        let size = Int64(try FileManager.default.attributesOfItem(atPath: video.path)[.size] as? NSNumber ?? 0)

        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        var endpoints: [Int32: MTProtoConnection.Endpoint] = [:]
        for (dc, port) in server.ports { endpoints[dc] = .init(host: "127.0.0.1", port: port, dcId: dc) }
        let manager = try AccountManager(
            rootPath: scratch.appendingPathComponent("app").path,
            environment: NetworkEnvironment(
                datacenters: endpoints, defaultMainDc: 2, publicKeys: [server.publicKey], group: group))
        let ann = try await BenchAccounts.signUp(manager, phone: "9996622431", name: "Ann")
        let document = try await upload(video.path, info: try VideoDecoder.probe(fileAt: video), account: ann)
        guard document.size == size else {
            throw BenchFailure("the server's document has \(String(describing: document.size)) bytes, not \(size)")
        }
        let mediaBox = ann.postbox.mediaBox

        // One side's run: from an empty MediaBox to the first frame; returns the seconds, the frame, the bytes fetched.
        func streamed() async throws -> (Double, VideoFrame, Int64) {
            mediaBox.removeResource(document.resource.id)
            let fetcher = MediaFetcher(network: ann.network, mediaBox: mediaBox)
            let start = now()
            let result = try await StreamedVideo.firstFrame(
                document.resource, size: size, fetcher: fetcher, mediaBox: mediaBox)
            return (now() - start, result.frame, result.fetchedBytes)
        }
        func whole() async throws -> (Double, VideoFrame, Int64) {
            mediaBox.removeResource(document.resource.id)
            let fetcher = MediaFetcher(network: ann.network, mediaBox: mediaBox)
            let start = now()
            let path = try await BenchFetch.completedPath(fetcher.fetch(document.resource, size: size))
            let frame = try VideoDecoder.firstFrame(
                try VideoDecoder.read(URL(fileURLWithPath: path), limits: .standard))
            return (now() - start, frame, fetcher.fetchedBytes)
        }

        // Warm-up: the two must show the same frame (BENCHMARKS.md, "Method").
        let (_, expected, streamedBytes) = try await streamed()
        let (_, wholeFrame, wholeBytes) = try await whole()
        guard wholeFrame == expected else {
            BenchmarkMethod.differentWork("first frame", ours: "a frame at \(expected.time) s", peer: "another frame")
        }
        guard wholeBytes == size else {
            BenchmarkMethod.differentWork("whole download", ours: "\(size) bytes", peer: "\(wholeBytes) bytes")
        }
        var oursTimes: [Double] = []
        var wholeTimes: [Double] = []
        for round in 0..<BenchmarkMethod.rounds(5) {
            let first = round % 2 == 0
            for side in first ? [true, false] : [false, true] {
                let (seconds, frame, _) = try await side ? streamed() : whole()
                guard frame == expected else {
                    BenchmarkMethod.differentWork(
                        "first frame", ours: "the warm-up's frame", peer: "another in round \(round)")
                }
                if side { oursTimes.append(seconds) } else { wholeTimes.append(seconds) }
            }
        }
        // Where the streamed side's time goes: the decode alone over the bytes it fetched (in memory), and the fetch of
        // those windows alone (into an empty MediaBox); medians of 5.
        let fileBytes = [UInt8](try Data(contentsOf: video))
        let front = VideoBytes.present(fileBytes, ranges: [0..<Int(streamedBytes)])
        var decodeTimes: [Double] = []
        var fetchTimes: [Double] = []
        for _ in 0..<5 {
            let start = now()
            _ = try VideoDecoder.firstFrame(front)
            decodeTimes.append(now() - start)
            mediaBox.removeResource(document.resource.id)
            let fetcher = MediaFetcher(network: ann.network, mediaBox: mediaBox)
            let fetchStart = now()
            _ = try await fetcher.fetchRange(document.resource, size: size, range: 0..<streamedBytes)
            fetchTimes.append(now() - fetchStart)
        }
        await ann.shutdown()
        try await group.shutdownGracefully()

        let megabytes = Double(size) / 1_048_576
        printTable(
            title: String(
                format:
                    "Time to first frame, a %.1f MB faststart H.264 video from a release tg-server process (127.0.0.1)",
                megabytes),
            peerName: "whole download (MediaFetcher.fetch, 512 KB × 4 in flight), then the first frame",
            [
                Comparison(
                    "first frame: StreamedVideo (fetch what the decode asks for) vs whole download then decode",
                    ours: Measurement(name: "streamed", times: oursTimes, items: 1, unit: "frames"),
                    peer: Measurement(name: "whole", times: wholeTimes, items: 1, unit: "frames"),
                    roundRatios: zip(oursTimes, wholeTimes).map { $1 / $0 }, goal: "the limit below")
            ])
        print(
            String(
                format: "streamed: %lld bytes fetched (%.2f%% of the file) for the first frame; whole: %lld bytes; "
                    + "frames equal (%d×%d at %.2f s)",
                streamedBytes, Double(streamedBytes) / Double(size) * 100, wholeBytes, expected.bitmap.width,
                expected.bitmap.height, expected.time))
        print(
            String(
                format: "the streamed side's parts (medians of 5): one decode of the first frame from those bytes in "
                    + "memory %.1f ms; fetching them into an empty MediaBox %.1f ms",
                median(decodeTimes.sorted()) * 1000, median(fetchTimes.sorted()) * 1000))
        // The best the streamed side can do is one decode and its fetch; the whole side pays the same decode after
        // the whole download, so on loopback (where the download is fast) the decode bounds the ratio.
        let floor = median(decodeTimes.sorted()) + median(fetchTimes.sorted())
        print(
            String(
                format: "limit: the whole side's median over that floor (one decode + the fetch) = %.2f×; the streamed "
                    + "side's median is %.2f× its floor",
                median(wholeTimes.sorted()) / floor, median(oursTimes.sorted()) / floor))
    }

    /// Uploads `path` in parts and sends it to Saved Messages as a streamable video; returns the server's document.
    static func upload(_ path: String, info: VideoInfo, account: Account) async throws -> TelegramMediaFile {
        let input = try await MultipartUpload.upload(network: account.network, path: path, name: "video.mp4")
        let attributes: [Api.DocumentAttribute] = [
            .documentAttributeVideo(
                .init(
                    supportsStreaming: true, duration: info.duration, w: Int32(info.width), h: Int32(info.height))),
            .documentAttributeFilename(.init(fileName: "video.mp4")),
        ]
        let sent = try await account.network.request(
            Api.functions.messages.sendMedia(
                peer: .inputPeerSelf,
                media: .inputMediaUploadedDocument(
                    .init(file: input, mimeType: "video/mp4", attributes: attributes)),
                message: "", randomId: 1))
        return try BenchFetch.sentDocument(in: sent)
    }
}
