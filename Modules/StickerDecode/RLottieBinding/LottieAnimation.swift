import CRLottie
import Foundation
public import ImageCore

/// A Lottie animation loaded by rlottie (the only importer of `CRLottie`), rendered into premultiplied RGBA.
///
/// Telegram's `LottieInstance` (Telegram-iOS `submodules/rlottie/PublicHeaders/RLottieBinding/LottieInstance.h`):
/// `frameCount`, `frameRate`, `dimensions`, render a frame by
/// index into a buffer of any size. rlottie renders premultiplied ARGB32 (BGRA bytes on little-endian), which
/// `render` converts to the pipeline's RGBA.
///
/// `@unchecked Sendable`: the rlottie handle is only used inside `lock` (an `NSLock`, visible to ThreadSanitizer),
/// so renders from several threads serialize.
public final class LottieAnimation: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = NSLock()
    /// Frames in the animation (`op − ip`).
    public let frameCount: Int
    /// Frames per second as declared.
    public let frameRate: Double
    /// Seconds as rlottie reports them: `(op − ip − 1) / fr`, the time of the last frame (a loop lasts
    /// `frameCount / frameRate`).
    public let duration: Double
    /// The canvas size (`w`, `h`).
    public let size: PixelSize

    /// Parses Lottie JSON; nil when rlottie rejects it. Validate untrusted data first (StickerFormats).
    public init?(json: [UInt8]) {
        // rlottie caches compositions by key when the key is not empty; an empty key keeps every load independent.
        let text = json + [0]
        let loaded = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lottie_animation_from_data($0.baseAddress, "", "") }
        }
        guard let loaded else { return nil }
        handle = loaded
        var width = 0, height = 0
        lottie_animation_get_size(loaded, &width, &height)
        size = PixelSize(width: width, height: height)
        frameCount = lottie_animation_get_totalframe(loaded)
        frameRate = lottie_animation_get_framerate(loaded)
        duration = lottie_animation_get_duration(loaded)
    }

    deinit { lottie_animation_destroy(handle) }

    /// Renders frame `index` (clamped to the animation) at `width × height`, scaled to fit the canvas.
    public func render(frame index: Int, width: Int, height: Int) -> Bitmap {
        precondition(width > 0 && height > 0, "empty frame \(width)×\(height)")
        // Render straight into fresh storage, then swap red and blue in place: no second buffer. The storage is not
        // zero-filled first because rlottie clears the whole surface before it draws (its painter's `begin`); the
        // player loop below relies on that too, and a test renders over garbage to check it.
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            renderARGB32(
                frame: index, width: width, height: height, into: UnsafeMutableRawPointer(buffer.baseAddress!))
            initialized = count
        }
        var bitmap = Bitmap(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels)!
        bitmap.swapRedAndBlue()
        return bitmap
    }

    /// Renders frame `index` into `bitmap`, reusing its storage when it already has the size (a player's loop).
    public func render(frame index: Int, into bitmap: inout Bitmap) {
        if bitmap.bytesPerRow != bitmap.width * 4 || bitmap.pixels.count != bitmap.width * bitmap.height * 4 {
            bitmap = Bitmap(width: bitmap.width, height: bitmap.height)
        }
        renderBGRA(frame: index, width: bitmap.width, height: bitmap.height, into: &bitmap.pixels)
        bitmap.swapRedAndBlue()
    }

    /// Renders into a caller's BGRA buffer of `width × height × 4` bytes (rlottie's native layout, no conversion).
    public func renderBGRA(frame index: Int, width: Int, height: Int, into buffer: inout [UInt8]) {
        precondition(width > 0 && height > 0 && buffer.count >= width * height * 4, "buffer too small")
        buffer.withUnsafeMutableBytes { raw in
            renderARGB32(frame: index, width: width, height: height, into: raw.baseAddress!)
        }
    }

    /// rlottie's render call on `width × height` ARGB32 words at `storage` (at least `width × height × 4` bytes).
    private func renderARGB32(frame index: Int, width: Int, height: Int, into storage: UnsafeMutableRawPointer) {
        let clamped = max(0, min(index, frameCount - 1))
        let words = storage.bindMemory(to: UInt32.self, capacity: width * height)
        lock.withLock { lottie_animation_render(handle, clamped, words, width, height, width * 4) }
    }
}
