import AnimatedSticker
import BenchmarkSupport
import CRLottieLoop
import Foundation
import GZip
import ImageCore
import RLottieBinding

/// .tgs render speed: our frame source (rlottie + BGRA→RGBA) vs the same rlottie driven by a plain C loop.
///
/// Two peers, so that each row compares the same work. Frames delivered as the pipeline's RGBA `Bitmap` are compared
/// with a C loop that renders and then converts each frame to RGBA in place (`rlottie_loop_render_rgba`); rlottie's
/// own BGRA output is compared with a C loop that only renders (`rlottie_loop_render`). A last row per size puts the
/// RGBA player loop against the render-only loop, which is what the conversion itself costs.
enum LottieBench {
    static func run(repository: URL) throws {
        var rgbaRows: [Comparison] = []
        var bgraRows: [Comparison] = []
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
                // Both C loops reuse one buffer, as a player does; so does "reused", while "new" allocates per frame.
                let renderOnly = {
                    rlottie_loop_render(handle, side, side, frames, &words)
                    blackHole(words)
                }
                let renderRGBA = {
                    rlottie_loop_render_rgba(handle, side, side, frames, &words)
                    blackHole(words)
                }
                let playerLoop = {
                    for i in 0..<frames { try! source.frame(at: i % source.frameCount, into: &reused) }
                    blackHole(reused)
                }
                let (player, peer) = interleaved(
                    items: Double(frames), unit: "frames", ours: playerLoop, peer: renderRGBA)
                let (fresh, peer2) = interleaved(
                    items: Double(frames), unit: "frames",
                    ours: {
                        for i in 0..<frames { blackHole(try! source.frame(at: i % source.frameCount)) }
                    }, peer: renderRGBA)
                let (raw, peer3) = interleaved(
                    items: Double(frames), unit: "frames",
                    ours: {
                        for i in 0..<frames {
                            source.animation.renderBGRA(
                                frame: i % source.frameCount, width: side, height: side, into: &buffer)
                        }
                        blackHole(buffer)
                    }, peer: renderOnly)
                let (converted, peer4) = interleaved(
                    items: Double(frames), unit: "frames", ours: playerLoop, peer: renderOnly)
                rgbaRows.append(
                    Comparison(
                        "\(name).tgs \(side)² → reused RGBA bitmap (player loop)", ours: player, peer: peer,
                        goal: "≥ 0.95×"))
                rgbaRows.append(
                    Comparison(
                        "\(name).tgs \(side)² → new RGBA bitmap per frame (peer reuses its buffer)", ours: fresh,
                        peer: peer2))
                bgraRows.append(
                    Comparison(
                        "\(name).tgs \(side)² → BGRA buffer (no conversion)", ours: raw, peer: peer3, goal: "≥ 0.95×"))
                bgraRows.append(
                    Comparison(
                        "\(name).tgs \(side)² → reused RGBA bitmap: render + conversion vs render only",
                        ours: converted, peer: peer4))
            }
        }
        printTable(
            title: ".tgs render into RGBA, 180 frames (frames/s; alternating runs, fastest of 7)",
            peerName: "C loop: rlottie + RGBA swap", rgbaRows)
        printTable(
            title: ".tgs render, rlottie's BGRA vs RGBA, 180 frames (frames/s; alternating runs, fastest of 7)",
            peerName: "C loop: rlottie only", bgraRows)
    }
}
