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
///
/// Same work, checked: before timing, every frame of the animation drawn by ours (RGBA and BGRA) must equal the C
/// loop's byte for byte (the same rlottie; the RGBA swap is the same formula). Each timed run then returns the frame
/// count and the checksum of the last frame it left in its buffer (taken after the timer stops), compared every
/// round; in the render-only row the C loop's BGRA frame is swapped to RGBA, untimed, before its checksum.
enum LottieBench {
    static func run(repository: URL) throws {
        var rgbaRows: [Comparison] = []
        var bgraRows: [Comparison] = []
        for name in ["square", "masked"] {
            let json = [UInt8](
                try Data(contentsOf: repository.appendingPathComponent("Tests/MediaFixtures/lottie/\(name).json")))
            let tgs = GZip.compress(json, level: 9)
            for side in [512, 128] {
                // A round lasts tens of milliseconds at either size (a shorter one is mostly the scheduler's noise on a
                // shared machine): 180 frames at 512², 720 at 128².
                let frames = side == 512 ? 180 : 720
                let size = PixelSize(width: side, height: side)
                let source = try LottieFrameSource(data: tgs, size: size)
                var reused = Bitmap(width: side, height: side)
                var fresh = Bitmap(width: side, height: side)
                var buffer = [UInt8](repeating: 0, count: side * side * 4)
                var words = [UInt32](repeating: 0, count: side * side)
                let text = json + [0]
                let handle = text.withUnsafeBufferPointer { t in
                    t.withMemoryRebound(to: CChar.self) { rlottie_loop_open($0.baseAddress)! }
                }
                defer { rlottie_loop_close(handle) }
                try checkEveryFrame(name: "\(name).tgs \(side)²", source: source, handle: handle, side: side)
                let label = { (hash: UInt64) in "\(frames) frames, last frame \(String(hash, radix: 16))" }
                // Both C loops reuse one buffer, as a player does; so does "reused", while "new" allocates per frame.
                let renderOnly = {
                    timed({ rlottie_loop_render(handle, side, side, frames, &words) }) {
                        label(checksum(rgbaBytes(words)))
                    }
                }
                let renderOnlyBGRA = {
                    timed({ rlottie_loop_render(handle, side, side, frames, &words) }) { label(checksum(words: words)) }
                }
                let renderRGBA = {
                    timed({ rlottie_loop_render_rgba(handle, side, side, frames, &words) }) {
                        label(checksum(words: words))
                    }
                }
                let playerLoop = {
                    timed({
                        for i in 0..<frames { try! source.frame(at: i % source.frameCount, into: &reused) }
                    }) { label(checksum(reused.pixels)) }
                }
                let freshLoop = {
                    timed({
                        for i in 0..<frames { fresh = try! source.frame(at: i % source.frameCount) }
                    }) { label(checksum(fresh.pixels)) }
                }
                let bgraLoop = {
                    timed({
                        for i in 0..<frames {
                            source.animation.renderBGRA(
                                frame: i % source.frameCount, width: side, height: side, into: &buffer)
                        }
                    }) { label(checksum(buffer)) }
                }
                let items = Double(frames)
                rgbaRows.append(
                    compareInterleaved(
                        "\(name).tgs \(side)² → reused RGBA bitmap (player loop)", items: items, unit: "frames",
                        goal: "≥ 0.95×", oursTimed: playerLoop, peerTimed: renderRGBA))
                rgbaRows.append(
                    compareInterleaved(
                        "\(name).tgs \(side)² → new RGBA bitmap per frame (peer reuses its buffer)", items: items,
                        unit: "frames", oursTimed: freshLoop, peerTimed: renderRGBA))
                bgraRows.append(
                    compareInterleaved(
                        "\(name).tgs \(side)² → BGRA buffer (no conversion)", items: items, unit: "frames",
                        goal: "≥ 0.95×", oursTimed: bgraLoop, peerTimed: renderOnlyBGRA))
                bgraRows.append(
                    compareInterleaved(
                        "\(name).tgs \(side)² → reused RGBA bitmap: render + conversion vs render only", items: items,
                        unit: "frames", oursTimed: playerLoop, peerTimed: renderOnly))
            }
        }
        printRows(
            ".tgs render into RGBA, 180 frames at 512², 720 at 128² (frames/s)",
            peerName: "C loop: rlottie + RGBA swap", rgbaRows)
        printRows(
            ".tgs render, rlottie's BGRA vs RGBA, 180 frames at 512², 720 at 128² (frames/s)",
            peerName: "C loop: rlottie only", bgraRows)
    }

    /// Before any timing: the frame counts agree, and every frame ours draws (RGBA bitmap and BGRA buffer) equals
    /// the C loop's byte for byte; otherwise the benchmark stops (`BenchmarkMethod.differentWork`).
    static func checkEveryFrame(
        name: String, source: LottieFrameSource, handle: OpaquePointer, side: Int
    ) throws {
        let count = rlottie_loop_frame_count(handle)
        guard count == source.frameCount else {
            BenchmarkMethod.differentWork(
                "\(name): frame count", ours: "\(source.frameCount)", peer: "\(count)")
        }
        var words = [UInt32](repeating: 0, count: side * side)
        var bgra = [UInt8](repeating: 0, count: side * side * 4)
        for frame in 0..<source.frameCount {
            rlottie_loop_render_frame(handle, frame, side, side, &words)
            source.animation.renderBGRA(frame: frame, width: side, height: side, into: &bgra)
            let rgba = try source.frame(at: frame)
            guard words.withUnsafeBytes({ $0.elementsEqual(bgra) }), rgbaBytes(words) == rgba.pixels else {
                BenchmarkMethod.differentWork(
                    "\(name), frame \(frame)", ours: "a frame (checksum \(checksum(rgba.pixels)))",
                    peer: "another (checksum \(checksum(rgbaBytes(words))))")
            }
        }
    }

    /// rlottie's ARGB32 words as R, G, B, A bytes (the pipeline's layout), untimed.
    static func rgbaBytes(_ words: [UInt32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: words.count * 4)
        for (i, w) in words.enumerated() {
            bytes[i * 4] = UInt8(truncatingIfNeeded: w >> 16)
            bytes[i * 4 + 1] = UInt8(truncatingIfNeeded: w >> 8)
            bytes[i * 4 + 2] = UInt8(truncatingIfNeeded: w)
            bytes[i * 4 + 3] = UInt8(truncatingIfNeeded: w >> 24)
        }
        return bytes
    }
}
