import CPNG

/// Why a PNG could not be read.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libpng rejected the data (bad signature, CRC, truncated, bad deflate).
    case corrupt(String)
    /// The header claims more pixels than the caller allows or than the data could possibly hold.
    case tooLarge(width: Int, height: Int)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt PNG: \(why)"
        case .tooLarge(let width, let height): return "PNG of \(width)×\(height) exceeds the allowed size"
        }
    }
}

/// PNG reading and writing through libpng's simplified API (`png_image_*`, which reports errors without longjmp).
public enum PNGCodec {
    /// The default pixel cap for `decode` (64 megapixels).
    public static let defaultMaxPixels = 64 << 20
    /// deflate cannot expand beyond ~1032:1, so a claimed size beyond this multiple of the input is a lie.
    static let maxInflateRatio = 1100

    /// Whether `bytes` start with the PNG signature.
    public static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Decodes any PNG (palette, gray, 16-bit, interlaced) into a premultiplied RGBA bitmap.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels) throws(PNGError) -> Bitmap {
        guard isPNG(bytes) else { throw .corrupt("no PNG signature") }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        defer { png_image_free(&image) }
        guard began != 0 else { throw .corrupt(message(of: image)) }
        let width = Int(image.width), height = Int(image.height)
        // The smallest the filtered image data can be is one bit per pixel plus a filter byte per row; deflate
        // cannot produce that from fewer than 1/1032 as many bytes, so a larger claim is a lie (checked before
        // anything is allocated).
        let minimumRaw = height.multipliedReportingOverflow(by: (width + 7) / 8 + 1)
        guard width > 0, height > 0, width * height <= maxPixels, !minimumRaw.overflow,
            minimumRaw.partialValue <= bytes.count * maxInflateRatio
        else { throw .tooLarge(width: width, height: height) }
        image.format = 3  // PNG_FORMAT_RGBA: 8-bit straight R, G, B, A.
        // Read straight RGBA into the bitmap's own storage, then premultiply in place: one buffer, one pass.
        var bitmap = Bitmap(width: width, height: height)
        let finished = bitmap.pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw .corrupt(message(of: image)) }
        bitmap.premultiplyInPlace()
        return bitmap
    }

    /// Encodes a bitmap as an 8-bit RGBA PNG (alpha divided out, as PNG stores straight alpha).
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        image.format = 3
        let straight = bitmap.straightRGBA()
        var size = 0
        // First call measures, second writes.
        _ = straight.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        precondition(size > 0, "libpng cannot size a \(bitmap.width)×\(bitmap.height) image: \(message(of: image))")
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { target in
            straight.withUnsafeBytes {
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, $0.baseAddress, 0, nil)
            }
        }
        precondition(ok != 0, "libpng failed to write a valid image: \(message(of: image))")
        png_image_free(&image)
        return Array(out.prefix(size))
    }

    static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
