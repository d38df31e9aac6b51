import AnimatedSticker
import BenchmarkSupport
import CRLottieLoop
import Foundation
import GZip
import ImageCore
import RLottieBinding

/// .tgs render speed: our frame source (rlottie + BGRA→RGBA) vs the same rlottie driven by a plain C loop.
enum LottieBench {
    static func run(repository: URL) throws {
        var rows: [Comparison] = []
        for name in ["square", "masked"] {
            let json = [UInt8](try Data(contentsOf: repository.appendingPathComponent("Tests/MediaFixtures/lottie/\(name).json")))
            let tgs = GZip.compress(json, level: 9)
            for side in [512, 128] {
                let frames = 180
                let size = PixelSize(width: side, height: side)
                let source = try LottieFrameSource(data: tgs, size: size)
                let ours = measure("ours", items: Double(frames), unit: "frames") {
                    for i in 0..<frames { blackHole(try! source.frame(at: i % source.frameCount)) }
                }
                var reused = Bitmap(width: side, height: side)
                let player = measure("ours reused", items: Double(frames), unit: "frames") {
                    for i in 0..<frames { try! source.frame(at: i % source.frameCount, into: &reused) }
                    blackHole(reused)
                }
                var buffer = [UInt8](repeating: 0, count: side * side * 4)
                let raw = measure("ours BGRA", items: Double(frames), unit: "frames") {
                    for i in 0..<frames {
                        source.animation.renderBGRA(frame: i % source.frameCount, width: side, height: side, into: &buffer)
                    }
                    blackHole(buffer)
                }
                var words = [UInt32](repeating: 0, count: side * side)
                let text = json + [0]
                let handle = text.withUnsafeBufferPointer { t in
                    t.withMemoryRebound(to: CChar.self) { rlottie_loop_open($0.baseAddress)! }
                }
                defer { rlottie_loop_close(handle) }
                // One buffer reused by the C loop; ours allocates a fresh bitmap per frame, as a frame source must.
                let peer = measure("C loop", items: Double(frames), unit: "frames") {
                    rlottie_loop_render(handle, side, side, frames, &words)
                    blackHole(words)
                }
                rows.append(Comparison("\(name).tgs \(side)² → reused RGBA bitmap (player loop)", ours: player, peer: peer, goal: "≥ 0.95×"))
                rows.append(Comparison("\(name).tgs \(side)² → new RGBA bitmap per frame", ours: ours, peer: peer))
                rows.append(Comparison("\(name).tgs \(side)² → BGRA buffer (no conversion)", ours: raw, peer: peer))
            }
        }
        printTable(title: ".tgs render, 180 frames (frames/s)", peerName: "rlottie C loop", rows)
    }
}
