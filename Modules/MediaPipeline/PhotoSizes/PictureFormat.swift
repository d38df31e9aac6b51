public import ImageCore
import JPEGBinding
import WebPBinding

/// The picture formats a photo may be uploaded in, told apart by their first bytes (never by a file name).
public enum PictureFormat: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"

    /// The format `bytes` start with, or nil.
    public static func sniff(_ bytes: [UInt8]) -> PictureFormat? {
        if JPEGDecoder.isJPEG(bytes) { return .jpeg }
        if PNGCodec.isPNG(bytes) { return .png }
        if WebPDecoder.isWebP(bytes) { return .webp }
        return nil
    }

    /// Width and height from the header alone, without decoding pixels (for JPEG, as displayed: EXIF orientations
    /// that turn the picture by 90° swap them). Errors are `PhotoError.processingFailed`.
    public func dimensions(of bytes: [UInt8]) throws(PhotoError) -> (width: Int, height: Int) {
        switch self {
        case .jpeg:
            do {
                let size = try JPEGDecoder.info(bytes).displaySize
                return (size.width, size.height)
            } catch { throw .processingFailed(format: self, reason: error.description) }
        case .webp:
            do {
                let info = try WebPDecoder.info(bytes)
                return (info.width, info.height)
            } catch { throw .processingFailed(format: self, reason: error.description) }
        case .png:
            // The PNG specification (section 5.6) puts IHDR first: length 13, "IHDR", width and height as 32-bit
            // big-endian numbers.
            guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else {
                throw .processingFailed(format: self, reason: "the first chunk is not IHDR (truncated or damaged)")
            }
            let be = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (be(16), be(20))
        }
    }

    /// The decoded picture (a JPEG turned as its EXIF orientation says), with each decoder's default pixel cap
    /// (which follows the input's size for JPEG and PNG), so a few kilobytes cannot become hundreds of megabytes.
    /// Errors are `PhotoError.processingFailed`.
    public func decode(_ bytes: [UInt8]) throws(PhotoError) -> Bitmap {
        switch self {
        case .jpeg:
            do { return try JPEGDecoder.decode(bytes, applyingOrientation: true) } catch {
                throw .processingFailed(format: self, reason: error.description)
            }
        case .png:
            do { return try PNGCodec.decode(bytes) } catch {
                throw .processingFailed(format: self, reason: error.description)
            }
        case .webp:
            do { return try WebPDecoder.decode(bytes) } catch {
                throw .processingFailed(format: self, reason: error.description)
            }
        }
    }
}
