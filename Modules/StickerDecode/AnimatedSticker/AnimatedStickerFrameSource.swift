public import ImageCore
public import RLottieBinding
public import StickerFormats
public import VideoBinding
public import WebPBinding

/// Frames of an animated sticker at one size: what a player pulls from (Telegram's `AnimatedStickerFrameSource`).
public protocol AnimatedStickerFrameSource {
    /// Frames in one loop.
    var frameCount: Int { get }
    /// Frames per second.
    var frameRate: Double { get }
    /// The size every frame has.
    var size: PixelSize { get }
    /// The frame at `index` (0-based, below `frameCount`).
    func frame(at index: Int) throws -> Bitmap
}

/// Why a sticker could not be opened.
public enum AnimatedStickerError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(TGSError)
    case renderer(String)
    case badSize(PixelSize)
    case frameOutOfRange(Int, count: Int)
    case cache(String)
    case webp(WebPError)
    /// A sticker whose canvas is over Telegram's limit (512×512).
    case stickerTooLarge(PixelSize, maxSide: Int)
    /// Bytes that are none of .tgs, Lottie JSON, WebP or PNG.
    case unknownFormat
    /// A PNG that could not be read.
    case png(PNGError)
    /// A video sticker (WebM) that could not be read.
    case video(VideoError)

    public var description: String {
        switch self {
        case .invalid(let error): return error.description
        case .renderer(let why): return "rlottie: \(why)"
        case .badSize(let size): return "cannot render at \(size)"
        case .frameOutOfRange(let index, let count): return "frame \(index) is outside 0..<\(count)"
        case .cache(let why): return "frame cache: \(why)"
        case .webp(let error): return error.description
        case .stickerTooLarge(let size, let maxSide):
            return "sticker canvas is \(size); Telegram stickers are at most \(maxSide)×\(maxSide) "
                + "(refused before decoding; resize the image first)"
        case .unknownFormat: return "not a .tgs, Lottie JSON, WebP, WebM or PNG file"
        case .png(let error): return error.description
        case .video(let error): return error.description
        }
    }
}

/// A `.tgs` (or Lottie JSON) rendered frame by frame with rlottie: Telegram's `AnimatedStickerDirectFrameSource`.
public final class LottieFrameSource: AnimatedStickerFrameSource, Sendable {
    public let info: TGSInfo
    /// Telegram limits the sticker breaks (reported; the sticker still plays).
    public let violations: [StickerLimitViolation]
    public let animation: LottieAnimation
    public let size: PixelSize
    public var frameCount: Int { animation.frameCount }
    public var frameRate: Double { animation.frameRate }

    /// The largest side frames may be rendered at.
    public static let maxSide = 2048

    /// Opens `.tgs` or JSON bytes to render at `size` (the canvas size when nil, at most 2048 per side).
    public init(data: [UInt8], size: PixelSize? = nil) throws(AnimatedStickerError) {
        let inspected: (info: TGSInfo, json: [UInt8])
        do { inspected = try TGSValidation.inspect(data) } catch { throw .invalid(error) }
        let target = size ?? PixelSize(width: inspected.info.width, height: inspected.info.height)
        guard (1...Self.maxSide).contains(target.width), (1...Self.maxSide).contains(target.height) else {
            throw .badSize(target)
        }
        // rlottie fits the canvas into the target; its rasterizer keeps 16-bit coordinates (LottieRenderBudget).
        let scale = max(
            Double(target.width) / Double(inspected.info.width), Double(target.height) / Double(inspected.info.height))
        guard inspected.info.renderBudget.fitsRender(scale: scale) else {
            let reach = inspected.info.renderBudget.extentDescription
            throw .invalid(
                .beyondRenderLimits(
                    "layer '\(inspected.info.renderBudget.farthestLayer)' reaches \(reach) units from the origin, past "
                        + "\(Int(LottieRenderBudget.maxDeviceExtent)) pixels at \(target.width)×\(target.height)"))
        }
        guard let animation = LottieAnimation(json: inspected.json) else { throw .renderer("rejected the animation") }
        guard animation.frameCount > 0 else { throw .renderer("no frames") }
        self.info = inspected.info
        self.violations = TGSValidation.violations(inspected.info)
        self.animation = animation
        self.size = target
    }

    public func frame(at index: Int) throws -> Bitmap {
        guard (0..<frameCount).contains(index) else {
            throw AnimatedStickerError.frameOutOfRange(index, count: frameCount)
        }
        return animation.render(frame: index, width: size.width, height: size.height)
    }

    /// Renders frame `index` into `bitmap` (resized to the source's size if needed), reusing its storage.
    public func frame(at index: Int, into bitmap: inout Bitmap) throws {
        guard (0..<frameCount).contains(index) else {
            throw AnimatedStickerError.frameOutOfRange(index, count: frameCount)
        }
        if bitmap.size != size { bitmap = Bitmap(width: size.width, height: size.height) }
        animation.render(frame: index, into: &bitmap)
    }

    /// The first frame: the sticker's thumbnail (Telegram's `CachedAnimatedStickerFirstFrameRepresentation`).
    public func thumbnail() -> Bitmap { animation.render(frame: 0, width: size.width, height: size.height) }
}

extension AnimatedStickerFrameSource {
    /// Source frame indices to show when playing at `outputRate` fps for one loop (frames are repeated or skipped).
    public func frameIndices(outputRate: Double) -> [Int] {
        guard outputRate > 0, frameRate > 0, frameCount > 0 else { return [] }
        let duration = Double(frameCount) / frameRate
        let count = max(1, Int((duration * outputRate).rounded()))
        return (0..<count).map { min(frameCount - 1, Int((Double($0) / outputRate * frameRate + 1e-9).rounded(.down))) }
    }
}
