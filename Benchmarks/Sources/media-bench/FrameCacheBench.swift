import AnimatedSticker
import BenchmarkSupport
import Foundation
import GZip
import ImageCore

/// The compressed frame cache: its size against raw RGBA frames, and reads (random, sequential) against copying raw
/// frames out of memory, with rlottie rendering for scale, in interleaved rounds.
///
/// Same work, checked: before timing, every frame the cache returns must equal the rendered frame byte for byte. In
/// each timed run both sides read the same frames in the same order and fold a fingerprint of each (its size and 64
/// bytes spread over it, `fold`) into the checksum they return, compared every round.
enum FrameCacheBench {
    static func run(repository: URL) throws {
        var rows: [Comparison] = []
        var sizes: [String] = []
        for name in ["square", "masked", "gradient"] {
            let url = repository.appendingPathComponent("Tests/MediaFixtures/lottie/\(name).json")
            let side = 256
            let source = try LottieFrameSource(
                data: GZip.compress([UInt8](try Data(contentsOf: url))), size: PixelSize(width: side, height: side))
            let raw = try (0..<source.frameCount).map { try source.frame(at: $0) }
            var state: UInt64 = 42
            // 1,200 reads a round (300 under bench-check): a round of raw copies then lasts milliseconds, not a time slice.
            let readCount = BenchmarkMethod.isCheck ? 300 : 1_200
            let random = (0..<readCount).map { _ -> Int in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return Int(state >> 33) % source.frameCount
            }
            let sequential = (0..<random.count).map { $0 % source.frameCount }
            let items = Double(random.count)
            /// Times reading `order` with `read`, folding each frame's fingerprint into the checksum returned.
            func reads(_ order: [Int], _ read: (Int) -> [UInt8]) -> TimedRun<String> {
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                return timed({ for i in order { fold(&hash, read(i)) } }) {
                    "\(order.count) frames, fingerprint \(String(hash, radix: 16))"
                }
            }
            // The peer: a raw frame copied out of memory, as a decode produces a fresh buffer.
            let copy = { (order: [Int]) in reads(order) { i in raw[i].pixels.withUnsafeBufferPointer { Array($0) } } }
            for interval in [16, 4, 1] {
                let start = now()
                let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: interval)
                let buildRate = Double(source.frameCount) / (now() - start)
                for frame in 0..<cache.frameCount where try cache.frame(at: frame).pixels != raw[frame].pixels {
                    BenchmarkMethod.differentWork(
                        "\(name), keyframe every \(interval), frame \(frame)", ours: "a cached frame",
                        peer: "another rendered frame")
                }
                sizes.append(
                    "\(name) \(side)², keyframe every \(interval): \(cache.frameCount) frames "
                        + "(\(cache.deltaFrameCount) as deltas), \(cache.compressedSize / 1024) KB vs raw "
                        + "\(cache.rawSize / 1024) KB (\(String(format: "%.1f", Double(cache.rawSize) / Double(cache.compressedSize)))× smaller); "
                        + "built at \(String(format: "%.0f", buildRate)) frames/s (one build)")
                rows.append(
                    compareInterleaved(
                        "\(name), keyframe every \(interval): random access", items: items, unit: "frames",
                        oursTimed: { reads(random) { try! cache.frame(at: $0).pixels } },
                        peerTimed: { copy(random) }))
                if interval == 16 {
                    rows.append(
                        compareInterleaved(
                            "\(name), keyframe every 16: sequential playback", items: items, unit: "frames",
                            oursTimed: { reads(sequential) { try! cache.frame(at: $0).pixels } },
                            peerTimed: { copy(sequential) }))
                }
            }
            rows.append(
                compareInterleaved(
                    "\(name): rlottie render (for scale)", items: items, unit: "frames",
                    oursTimed: { reads(random) { try! source.frame(at: $0).pixels } }, peerTimed: { copy(random) }))
        }
        printRows(
            "Frame cache at 256² (zstd; XOR delta or whole, whichever packs smaller): reads (frames/s)",
            peerName: "raw frames (copy)", rows)
        print("")
        for line in sizes { print("- \(line)") }
    }
}
