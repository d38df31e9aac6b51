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
            let json = [UInt8](
                try Data(contentsOf: repository.appendingPathComponent("Tests/MediaFixtures/lottie/\(name).json")))
            let tgs = GZip.compress(json, level: 9)
            for side in [512, 128] {
                let frames = 180
                let size = PixelSize(width: side, height: side)
                let source = try LottieFrameSource(data: tgs, size: size)
                var reused = Bitmap(width: side, height: side)
                var buffer = [UInt8](repeating: 0, count: side * side * 4)
                var words = [UInt32](repeating: 0, count: side * side)
                let text = json + [0]
                let handle = text.withUnsafeBufferPointer { t in
                    t.withMemoryRebound(to: CChar.self) { rlottie_loop_open($0.baseAddress)! }
                }
                defer { rlottie_loop_close(handle) }
                // The C loop reuses one buffer, as a player does; so does "reused", while "new" allocates per frame.
                let peerLoop = {
                    rlottie_loop_render(handle, side, side, frames, &words)
                    blackHole(words)
                }
                let (player, peer) = interleaved(
                    items: Double(frames), unit: "frames",
                    ours: {
                        for i in 0..<frames { try! source.frame(at: i % source.frameCount, into: &reused) }
                        blackHole(reused)
                    }, peer: peerLoop)
                let (ours, peer2) = interleaved(
                    items: Double(frames), unit: "frames",
                    ours: {
                        for i in 0..<frames { blackHole(try! source.frame(at: i % source.frameCount)) }
                    }, peer: peerLoop)
                let (raw, peer3) = interleaved(
                    items: Double(frames), unit: "frames",
                    ours: {
                        for i in 0..<frames {
                            source.animation.renderBGRA(
                                frame: i % source.frameCount, width: side, height: side, into: &buffer)
                        }
                        blackHole(buffer)
                    }, peer: peerLoop)
                rows.append(
                    Comparison(
                        "\(name).tgs \(side)² → reused RGBA bitmap (player loop)", ours: player, peer: peer,
                        goal: "≥ 0.95×"))
                rows.append(Comparison("\(name).tgs \(side)² → new RGBA bitmap per frame", ours: ours, peer: peer2))
                rows.append(Comparison("\(name).tgs \(side)² → BGRA buffer (no conversion)", ours: raw, peer: peer3))
            }
        }
        printTable(
            title: ".tgs render, 180 frames (frames/s; alternating runs, fastest of 7)", peerName: "rlottie C loop",
            rows)
    }
}
