import CPNG

/// Why a PNG could not be read.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libpng rejected the data (bad signature, CRC, truncated, bad deflate).
    case corrupt(String)
    /// The IHDR header claims more pixels than `limit`: the caller's cap, or the default one for an input of
    /// `inputSize` bytes.
    case tooLarge(width: Int, height: Int, limit: Int, inputSize: Int)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt PNG: \(why)"
        case .tooLarge(let width, let height, let limit, let inputSize):
            return "PNG header (IHDR) claims \(width)×\(height) pixels from \(inputSize) bytes, over the limit of "
                + "\(limit) pixels; refused before decoding (pass a larger maxPixels if such an image is expected)"
        }
    }
}

/// PNG reading and writing through libpng's simplified API (`png_image_*`, which reports errors without longjmp).
public enum PNGCodec {
    /// The most pixels `decode` ever allows by default (64 megapixels, 256 MB of RGBA).
    public static let defaultMaxPixels = 64 << 20
    /// Pixels any input may decode to by default, however small it is (4 megapixels, 16 MB of RGBA: 2048×2048).
    public static let smallImagePixels = 4 << 20
    /// Pixels per input byte allowed by default above `smallImagePixels`. deflate cannot expand beyond ~1032:1, so
    /// an image of 8 or more bits per pixel (every RGB, RGBA, gray+alpha and 8-bit gray or palette PNG) never
    /// reaches more than ~1032 pixels per byte; only 1-, 2- and 4-bit images can, and a caller who expects a huge
    /// one of those passes `maxPixels`.
    public static let pixelsPerInputByte = 1024
    /// deflate cannot expand beyond ~1032:1, so a claimed size beyond this multiple of the input is a lie.
    static let maxInflateRatio = 1100

    /// The pixel cap `decode` applies to an input of `inputSize` bytes when the caller gives none:
    /// `max(smallImagePixels, inputSize × pixelsPerInputByte)`, at most `defaultMaxPixels`. An 8 KB file may
    /// claim 8000×8000 of a 1-bit image; this refuses it (256 MB of RGBA) instead of decoding it.
    public static func defaultMaxPixels(inputSize: Int) -> Int {
        let (relative, overflow) = inputSize.multipliedReportingOverflow(by: pixelsPerInputByte)
        return min(defaultMaxPixels, max(smallImagePixels, overflow ? .max : relative))
    }

    /// Whether `bytes` start with the PNG signature.
    public static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Decodes any PNG (palette, gray, 16-bit, interlaced) into a premultiplied RGBA bitmap.
    ///
    /// `maxPixels` is the most pixels the caller accepts; without it the cap depends on the input's size
    /// (`defaultMaxPixels(inputSize:)`). Either way the header is checked before anything is allocated.
    public static func decode(_ bytes: [UInt8], maxPixels: Int? = nil) throws(PNGError) -> Bitmap {
        guard isPNG(bytes) else { throw .corrupt("no PNG signature") }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        defer { png_image_free(&image) }
        guard began != 0 else { throw .corrupt(message(of: image)) }
        let width = Int(image.width), height = Int(image.height)
        let limit = maxPixels ?? defaultMaxPixels(inputSize: bytes.count)
        // The smallest the filtered image data can be is one bit per pixel plus a filter byte per row; deflate
        // cannot produce that from fewer than 1/1032 as many bytes, so a larger claim is a lie (checked before
        // anything is allocated).
        let minimumRaw = height.multipliedReportingOverflow(by: (width + 7) / 8 + 1)
        guard width > 0, height > 0, width * height <= limit, !minimumRaw.overflow,
            minimumRaw.partialValue <= bytes.count * maxInflateRatio
        else { throw .tooLarge(width: width, height: height, limit: limit, inputSize: bytes.count) }
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
