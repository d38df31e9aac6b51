import GZip
import ImageCore
public import WebPBinding

/// The kinds of sticker file this package reads, told apart by their first bytes.
public enum StickerFormat: String, Sendable, Equatable {
    /// gzipped Lottie JSON.
    case tgs
    /// Plain Lottie JSON (accepted where `.tgs` is).
    case lottieJSON
    /// A still or animated WebP.
    case webp
    /// A PNG (not a Telegram sticker format, but a common input).
    case png
    /// A WebM (Matroska) video: Telegram's video stickers are VP9 in WebM.
    case webm

    /// Matroska's EBML header magic, the first four bytes of every WebM file.
    public static let ebmlMagic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]

    /// Sniffs the format from the first bytes; nil when none matches.
    public static func detect(_ bytes: [UInt8]) -> StickerFormat? {
        if GZip.isGZip(bytes) { return .tgs }
        if WebPDecoder.isWebP(bytes) { return .webp }
        if PNGCodec.isPNG(bytes) { return .png }
        if bytes.starts(with: ebmlMagic) { return .webm }
        if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{") {
            return .lottieJSON
        }
        return nil
    }
}

/// Telegram's rules for static WebP stickers: one side exactly 512 px, the other at most 512, at most 512 KB.
public enum WebPStickerValidation {
    public static let side = 512
    public static let maxSize = 512 * 1024

    /// Rules that a WebP breaks, read from its header only.
    public static func violations(_ bytes: [UInt8]) throws(WebPError) -> [String] {
        let info = try WebPDecoder.info(bytes)
        var result: [String] = []
        if max(info.width, info.height) != side || min(info.width, info.height) > side {
            result.append("size is \(info.width)×\(info.height); one side must be 512 and the other at most 512")
        }
        if bytes.count > maxSize { result.append("file is \(bytes.count) bytes; at most 512 KB") }
        return result
    }
}
