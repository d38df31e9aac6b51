import Foundation
import MediaBox
import MediaResources
import MediaTestSupport
import Postbox
import PostboxTesting
import SwiftSignalKit
import SyncCore
import TelegramCore
import Testing
import VideoBinding

/// A video's first frame streamed from tg-server: Ann sends Bob a faststart video and one that keeps its index (moov)
/// at the end; Bob gets each one's first frame — the same pixels as the whole file's — after fetching only the 64 KB
/// windows the decode asked for (and one window of read-ahead after each), the index of the second from the file's
/// tail; a full fetch afterwards completes the
/// file from what the stream left and matches what Ann sent.
@Suite(.serialized) struct StreamedVideoServerTests {
    static let window = 65_536

    @Test func aVideosFirstFrameArrivesLongBeforeTheWholeFile() async throws {
        let harness = try await ServerHarness()
        let ann = try await harness.signUp(phone: "9996620071", name: "Ann")
        let bob = try await harness.signUp(phone: "9996620072", name: "Bob")
        do {
            try await streams(harness, ann: ann, bob: bob)
        } catch {
            try await harness.close([ann, bob])
            throw error
        }
        try await harness.close([ann, bob])
    }

    func streams(_ harness: ServerHarness, ann: Account, bob: Account) async throws {
        try await ServerHarness.startAndCatchUp(ann)
        try await ServerHarness.startAndCatchUp(bob)
        let bobId = try #require(try await ann.importContact(phone: "9996620072", firstName: "Bob"))
        let annId = try #require(try await bob.importContact(phone: "9996620071", firstName: "Ann"))

        // 3 s of 480×270 H.264 with noise (so the file is megabytes, not kilobytes), a key frame every 2 s, AAC.
        var sent: [[UInt8]] = []
        for (name, faststart) in [("faststart.mp4", true), ("moov-at-end.mp4", false)] {
            let path = harness.root.path + "/" + name
            var arguments = [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=480x270:rate=25", "-f", "lavfi", "-i",
                "sine=frequency=440", "-t", "3", "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-g", "50",
                "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
            ]
            if faststart { arguments += ["-movflags", "+faststart"] }
            try #require(try await Tools.runOffPool("ffmpeg", arguments + [path]) == 0, "ffmpeg is missing: run `make deps`")
            sent.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            let file = try OutgoingVideo.prepare(path: path, kind: .video, for: ann)
            _ = try ann.enqueue([EnqueueMessage(text: name, file: file)], to: bobId)
        }

        var received: [TelegramMediaFile] = []
        try await ServerHarness.wait("Ann's two videos in Bob's Postbox", timeout: 120) {
            let messages = try bob.postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: annId, before: nil, count: 10)
            }
            received = messages.filter { $0.authorId == annId }.sorted { $0.id.id < $1.id.id }
                .compactMap { $0.media.first as? TelegramMediaFile }
            return received.count == 2
        }

        let mediaBox = bob.postbox.mediaBox
        for (file, bytes) in zip(received, sent) {
            let size = try #require(file.size)
            #expect(file.isVideo && size == Int64(bytes.count))
            #expect(bytes.count > 1_000_000, "a file of \(bytes.count) bytes is too small to show streaming")
            let fetcher = MediaFetcher(network: bob.network, mediaBox: mediaBox, partSize: Self.window)
            let streamed = try await within(seconds: 120) {
                try await StreamedVideo.firstFrame(
                    file.resource, size: size, fetcher: fetcher, mediaBox: mediaBox, readAhead: Int64(Self.window))
            }
            print(
                "streamed first frame: \(streamed.rounds) decodes, \(streamed.requests) getFile calls, "
                    + "\(streamed.fetchedBytes) of \(size) bytes")
            #expect(streamed.frame == (try VideoDecoder.firstFrame(bytes)), "the whole file's first frame")
            #expect(streamed.rounds <= 8)
            #expect(streamed.fetchedBytes == streamed.storedBytes, "every byte stored came from this stream")
            #expect(streamed.fetchedBytes <= Int64(streamed.requests * Self.window), "64 KB windows")
            #expect(
                streamed.fetchedBytes * 4 < size, "fetched \(streamed.fetchedBytes) of \(size) bytes for the frame")
            let ranges = mediaBox.rangeMap(file.resource.id).ranges
            #expect(ranges.first?.lowerBound == 0, "the header")
            let moov = try #require(Self.moovOffset(bytes))
            if moov > bytes.count / 2 {
                #expect(ranges.last?.upperBound == size, "the index, from the tail: \(ranges)")
                #expect(ranges.count == 2, "the front and the tail: \(ranges)")
            } else {
                #expect(ranges.count == 1, "the front only: \(ranges)")
            }

            // The rest afterwards: a whole fetch skips what the stream stored and ends with Ann's bytes.
            let whole = try await ServerHarness.outcome(fetcher.fetch(file.resource, size: size), timeout: 120)
            guard case .status(.local(let path))? = whole.values.last else {
                Issue.record("the fetch ended with \(String(describing: whole.values.last))")
                continue
            }
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
            #expect(fetcher.fetchedBytes == size, "the stream's windows were not fetched again")
        }
    }

    /// Where the top-level `moov` box starts.
    static func moovOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[offset + 4..<offset + 8].elementsEqual("moov".utf8) { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    /// `body`'s value, or a failure after `seconds`.
    func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else {
                Issue.record("not within \(seconds) s")
                throw CancellationError()
            }
            return value
        }
    }
}
