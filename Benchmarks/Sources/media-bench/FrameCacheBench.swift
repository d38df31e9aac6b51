import AnimatedSticker
import BenchmarkSupport
import Foundation
import GZip
import ImageCore

/// The compressed frame cache: its size against raw RGBA frames, and reads (random, sequential) against copying raw
/// frames out of memory, with rlottie rendering for scale. Each row alternates ours and the copy, fastest of 7.
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
            let order = (0..<300).map { _ -> Int in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return Int(state >> 33) % source.frameCount
            }
            let copy = {
                for i in order {
                    var frame = raw[i]
                    frame.pixels[0] &+= 1  // force a copy, as a decode produces a fresh buffer
                    blackHole(frame)
                }
            }
            for interval in [16, 4, 1] {
                let start = now()
                let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: interval)
                let buildRate = Double(source.frameCount) / (now() - start)
                sizes.append(
                    "\(name) \(side)², keyframe every \(interval): \(cache.frameCount) frames "
                        + "(\(cache.deltaFrameCount) as deltas), \(cache.compressedSize / 1024) KB vs raw "
                        + "\(cache.rawSize / 1024) KB (\(String(format: "%.1f", Double(cache.rawSize) / Double(cache.compressedSize)))× smaller); "
                        + "built at \(String(format: "%.0f", buildRate)) frames/s")
                let (random, peer) = interleaved(
                    items: Double(order.count), unit: "frames",
                    ours: {
                        for i in order { blackHole(try! cache.frame(at: i)) }
                    }, peer: copy)
                rows.append(Comparison("\(name), keyframe every \(interval): random access", ours: random, peer: peer))
                if interval == 16 {
                    let (sequential, peer2) = interleaved(
                        items: Double(order.count), unit: "frames",
                        ours: {
                            for i in 0..<order.count { blackHole(try! cache.frame(at: i % cache.frameCount)) }
                        }, peer: copy)
                    rows.append(
                        Comparison("\(name), keyframe every 16: sequential playback", ours: sequential, peer: peer2))
                }
            }
            let (render, peer3) = interleaved(
                items: Double(order.count), unit: "frames", runs: 3,
                ours: {
                    for i in order { blackHole(try! source.frame(at: i)) }
                }, peer: copy)
            rows.append(Comparison("\(name): rlottie render (for scale)", ours: render, peer: peer3))
        }
        printTable(
            title: "Frame cache at 256² (zstd; XOR delta or whole, whichever packs smaller): reads (frames/s)",
            peerName: "raw frames (copy)", rows)
        print("")
        for line in sizes { print("- \(line)") }
    }
}
