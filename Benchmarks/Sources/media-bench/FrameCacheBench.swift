import AnimatedSticker
import BenchmarkSupport
import Foundation
import GZip
import ImageCore

/// The compressed frame cache: its size against raw RGBA frames, and random-access reads against copying raw frames
/// and against rendering with rlottie.
enum FrameCacheBench {
    static func run(repository: URL) throws {
        var rows: [Comparison] = []
        var sizes: [String] = []
        for name in ["square", "masked", "gradient"] {
            let json = [UInt8](
                try Data(contentsOf: repository.appendingPathComponent("Tests/MediaFixtures/lottie/\(name).json")))
            let side = 256
            let source = try LottieFrameSource(data: GZip.compress(json), size: PixelSize(width: side, height: side))
            let raw = try (0..<source.frameCount).map { try source.frame(at: $0) }
            for interval in [1, 4] {
                let small = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: interval)
                sizes.append("\(name) \(side)², keyframe every \(interval): \(small.compressedSize / 1024) KB")
                var state: UInt64 = 7
                let order = (0..<300).map { _ -> Int in
                    state = state &* 6_364_136_223_846_793_005 &+ 1
                    return Int(state >> 33) % small.frameCount
                }
                let random = measure("random", items: Double(order.count), unit: "frames") {
                    for i in order { blackHole(try! small.frame(at: i)) }
                }
                let copy = measure("raw copy", items: Double(order.count), unit: "frames") {
                    for i in order {
                        var frame = raw[i]
                        frame.pixels[0] &+= 1
                        blackHole(frame)
                    }
                }
                rows.append(
                    Comparison("\(name) 256², keyframe every \(interval): random access", ours: random, peer: copy))
            }
            var cacheBuild: AnimatedStickerFrameCache?
            let build = measure("build", items: Double(source.frameCount), unit: "frames", runs: 3) {
                cacheBuild = try! AnimatedStickerFrameCache.build(from: source, keyframeInterval: 16)
            }
            let cache = cacheBuild!
            sizes.append(
                "\(name) \(side)²: \(cache.frameCount) frames (\(cache.deltaFrameCount) as deltas), \(cache.compressedSize / 1024) KB vs raw "
                    + "\(cache.rawSize / 1024) KB (\(String(format: "%.1f", Double(cache.rawSize) / Double(cache.compressedSize)))× smaller); "
                    + "build \(String(format: "%.0f", build.throughput)) frames/s")
            var state: UInt64 = 42
            let order = (0..<1_000).map { _ -> Int in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return Int(state >> 33) % cache.frameCount
            }
            let random = measure("cache random", items: Double(order.count), unit: "frames") {
                for i in order { blackHole(try! cache.frame(at: i)) }
            }
            let sequential = measure("cache sequential", items: Double(order.count), unit: "frames") {
                for i in 0..<order.count { blackHole(try! cache.frame(at: i % cache.frameCount)) }
            }
            let copy = measure("raw copy", items: Double(order.count), unit: "frames") {
                for i in order {
                    var frame = raw[i]
                    frame.pixels[0] &+= 1  // force a copy, as a decode produces a fresh buffer
                    blackHole(frame)
                }
            }
            let render = measure("rlottie", items: Double(order.count), unit: "frames", runs: 3) {
                for i in order { blackHole(try! source.frame(at: i)) }
            }
            rows.append(Comparison("\(name) 256²: random access", ours: random, peer: copy))
            rows.append(Comparison("\(name) 256²: sequential playback", ours: sequential, peer: copy))
            rows.append(Comparison("\(name) 256²: rlottie render (for scale)", ours: render, peer: copy))
        }
        printTable(
            title:
                "Frame cache (zstd; XOR delta or whole, whichever packs smaller; keyframe every 16): reads (frames/s)",
            peerName: "raw frames (copy)", rows)
        print("")
        for line in sizes { print("- \(line)") }
    }
}
