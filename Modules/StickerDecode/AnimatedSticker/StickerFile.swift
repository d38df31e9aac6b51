public import ImageCore
import ImageTransform
public import StickerFormats
import VideoBinding
public import WebPBinding

/// A sticker file opened whatever its format, as one frame source: `.tgs` or Lottie JSON rendered by rlottie at the
/// requested size, a WebP sticker or a WebM video sticker (at most 512×512) decoded and scaled to fit it, or a PNG as
/// a single frame.
public final class StickerFile: AnimatedStickerFrameSource {
    /// The format the bytes were sniffed as.
    public let format: StickerFormat
    public let size: PixelSize
    public let frameCount: Int
    /// Frames per second (0 for a still image).
    public let frameRate: Double
    /// What the file says about itself, one fact per line (format, canvas, frames, size, Telegram's limits).
    public let summary: [String]
    private let source: any AnimatedStickerFrameSource
    private let fit: TransformArguments?

    /// Opens `data`; `side` asks for square frames of that many pixels (Lottie renders at it, WebP and PNG are
    /// scaled to fit it), nil keeps the canvas.
    public init(data: [UInt8], side: Int? = nil) throws(AnimatedStickerError) {
        guard let format = StickerFormat.detect(data) else {
            throw .unknownFormat
        }
        if let side, !(1...LottieFrameSource.maxSide).contains(side) {
            throw .badSize(PixelSize(width: side, height: side))
        }
        let square = side.map { PixelSize(width: $0, height: $0) }
        self.format = format
        switch format {
        case .tgs, .lottieJSON:
            let lottie = try LottieFrameSource(data: data, size: square)
            source = lottie
            fit = nil
            size = lottie.size
            let info = lottie.info
            summary =
                [
                    "format: \(format == .tgs ? "tgs (gzipped Lottie)" : "Lottie JSON")",
                    "canvas: \(info.width)×\(info.height)",
                    "frames: \(lottie.frameCount) at \(lottie.frameRate) fps (\(Self.seconds(info.duration)) s)",
                    "size: \(data.count) bytes (JSON \(info.jsonSize) bytes), \(info.layerCount) layer(s)",
                    "render cost: geometry within \(info.renderBudget.extentDescription) units, "
                        + "\(Int(info.renderBudget.contentCost)) shape item(s), "
                        + "\(info.renderBudget.layerInstances) layer(s) with precomps expanded",
                ] + Self.limits(lottie.violations.map(\.description))
        case .webp:
            let webp = try WebPFrameSource(data: data)
            let header: WebPInfo
            do { header = try WebPDecoder.info(data) } catch { throw .webp(error) }
            source = webp
            fit = square.map { TransformArguments([.fit($0)]) }
            size = square.map { Self.fitted(webp.size, into: $0) } ?? webp.size
            var lines = [
                "format: webp (\(header.isAnimated ? "animated" : "still"), "
                    + "\(header.isLossless ? "lossless" : "lossy"))",
                "canvas: \(header.width)×\(header.height)\(header.hasAlpha ? " with alpha" : "")",
                "frames: \(webp.frameCount)"
                    + (webp.frameRate > 0 ? " at \(Self.seconds(webp.frameRate, digits: 1)) fps" : ""),
                "size: \(data.count) bytes",
            ]
            if !header.isAnimated {
                lines += Self.limits((try? WebPStickerValidation.violations(data)) ?? [])
            }
            summary = lines
        case .webm:
            let video = try VideoStickerFrameSource(data: data)
            let info = video.info
            source = video
            fit = square.map { TransformArguments([.fit($0)]) }
            size = square.map { Self.fitted(video.size, into: $0) } ?? video.size
            summary =
                [
                    "format: webm (\(info.codec)\(info.hasAlpha ? " with alpha" : ""), decoded by \(video.decoderName))",
                    "canvas: \(info.width)×\(info.height)",
                    "frames: \(video.frameCount) at \(Self.seconds(video.frameRate, digits: 1)) fps "
                        + "(\(Self.seconds(info.duration)) s)",
                    "size: \(data.count) bytes",
                ] + Self.limits(VideoStickerValidation.violations(info, byteCount: data.count))
        case .png:
            let bitmap: Bitmap
            do { bitmap = try PNGCodec.decode(data) } catch { throw .png(error) }
            source = StillFrame(bitmap: bitmap)
            fit = square.map { TransformArguments([.fit($0)]) }
            size = square.map { Self.fitted(bitmap.size, into: $0) } ?? bitmap.size
            summary = ["format: png", "size: \(bitmap.width)×\(bitmap.height)"]
        }
        frameCount = source.frameCount
        frameRate = source.frameRate
    }

    public func frame(at index: Int) throws -> Bitmap {
        let frame = try source.frame(at: index)
        guard let fit else { return frame }
        do { return try ImageTransformer.apply(fit, to: frame) } catch {
            throw AnimatedStickerError.renderer("scaling frame \(index): \(error)")
        }
    }

    /// Frame indices for one loop at `fps` (every frame when nil or for a still image).
    public func frameIndices(fps: Double?) -> [Int] {
        guard let fps, frameRate > 0 else { return Array(0..<frameCount) }
        return frameIndices(outputRate: fps)
    }

    /// The size `ImageTransformer`'s `.fit` gives `size` inside `box` (aspect kept, at least 1 pixel a side).
    static func fitted(_ size: PixelSize, into box: PixelSize) -> PixelSize {
        let scale = min(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
        return PixelSize(
            width: max(1, Int((Double(size.width) * scale).rounded())),
            height: max(1, Int((Double(size.height) * scale).rounded())))
    }

    static func limits(_ violations: [String]) -> [String] {
        violations.isEmpty ? ["Telegram limits: ok"] : violations.map { "Telegram limits: \($0)" }
    }

    static func seconds(_ value: Double, digits: Int = 2) -> String {
        let scale = digits == 1 ? 10.0 : 100.0
        let rounded = (value * scale).rounded() / scale
        let text = "\(rounded)"
        let decimals = text.split(separator: ".").last.map(\.count) ?? 0
        return decimals < digits ? text + String(repeating: "0", count: digits - decimals) : text
    }
}

/// One bitmap as a one-frame source.
struct StillFrame: AnimatedStickerFrameSource {
    let bitmap: Bitmap
    var frameCount: Int { 1 }
    var frameRate: Double { 0 }
    var size: PixelSize { bitmap.size }
    func frame(at index: Int) throws -> Bitmap {
        guard index == 0 else { throw AnimatedStickerError.frameOutOfRange(index, count: 1) }
        return bitmap
    }
}
