import AnimatedSticker
import CommandLineOutput
import Foundation
import ImageCore
import ImageTransform
import StickerFormats
import WebPBinding

/// A sticker file opened as a sequence of frames, whatever its format.
struct StickerInput {
    let format: StickerFormat
    let size: PixelSize
    let frameCount: Int
    let frameRate: Double
    let summary: [String]
    let frame: (Int) throws -> Bitmap
    /// Frame indices for one loop at `fps` (all frames when nil).
    let indices: (Double?) -> [Int]

    static func open(_ path: String, size requested: Int?) throws -> StickerInput {
        let bytes = try readFile(path)
        guard let format = StickerFormat.detect(bytes) else {
            throw ToolError("\(path): not a .tgs, Lottie JSON, WebP or PNG")
        }
        let side = requested.map { PixelSize(width: $0, height: $0) }
        switch format {
        case .tgs, .lottieJSON:
            let source = try LottieFrameSource(data: bytes, size: side)
            var summary = [
                "format: \(format == .tgs ? "tgs (gzipped Lottie)" : "Lottie JSON")",
                "canvas: \(source.info.width)×\(source.info.height)",
                "frames: \(source.frameCount) at \(source.frameRate) fps "
                    + "(\(String(format: "%.2f", source.info.duration)) s)",
                "size: \(bytes.count) bytes (JSON \(source.info.jsonSize) bytes), \(source.info.layerCount) layer(s)",
            ]
            summary +=
                source.violations.isEmpty
                ? ["Telegram limits: ok"] : source.violations.map { "Telegram limits: \($0)" }
            return StickerInput(
                format: format, size: source.size, frameCount: source.frameCount, frameRate: source.frameRate,
                summary: summary, frame: { try source.frame(at: $0) },
                indices: { fps in fps.map { source.frameIndices(outputRate: $0) } ?? Array(0..<source.frameCount) })
        case .webp:
            let source = try WebPFrameSource(data: bytes)
            let info = try WebPDecoder.info(bytes)
            let fit = side.map { TransformArguments([.fit($0)]) }
            let scale: (Bitmap) throws -> Bitmap = { frame in
                guard let fit else { return frame }
                return try ImageTransformer.apply(fit, to: frame)
            }
            var summary = [
                "format: webp (\(info.isAnimated ? "animated" : "still"), \(info.isLossless ? "lossless" : "lossy"))",
                "canvas: \(info.width)×\(info.height)\(info.hasAlpha ? " with alpha" : "")",
                "frames: \(source.frameCount)"
                    + (source.frameRate > 0 ? " at \(String(format: "%.1f", source.frameRate)) fps" : ""),
                "size: \(bytes.count) bytes",
            ]
            if !info.isAnimated {
                let violations = try WebPStickerValidation.violations(bytes)
                summary += violations.isEmpty ? ["Telegram limits: ok"] : violations.map { "Telegram limits: \($0)" }
            }
            let outputSize = try scale(try source.frame(at: 0)).size
            return StickerInput(
                format: format, size: outputSize, frameCount: source.frameCount, frameRate: source.frameRate,
                summary: summary,
                frame: { try scale(try source.frame(at: $0)) },
                indices: { fps in
                    guard let fps, source.frameRate > 0 else { return Array(0..<source.frameCount) }
                    return source.frameIndices(outputRate: fps)
                })
        case .png:
            var bitmap = try PNGCodec.decode(bytes)
            if let side { bitmap = try ImageTransformer.apply(TransformArguments([.fit(side)]), to: bitmap) }
            let still = bitmap
            return StickerInput(
                format: format, size: still.size, frameCount: 1, frameRate: 0,
                summary: ["format: png", "size: \(still.width)×\(still.height)"], frame: { _ in still },
                indices: { _ in [0] })
        }
    }
}
