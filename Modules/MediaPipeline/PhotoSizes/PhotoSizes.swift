import ImageCore
import ImageTransform
import JPEGBinding

/// One box thumbnail of a photo: JPEG bytes and their dimensions (what `photoSize` describes).
public struct PhotoSize: Sendable, Equatable {
    /// The type letter's box.
    public let type: PhotoSizeType
    public let width: Int
    public let height: Int
    /// The JPEG file.
    public let jpeg: [UInt8]
    /// `photoSize.size`: the JPEG's length in bytes.
    public var byteSize: Int { jpeg.count }
}

/// Everything a server stores for one uploaded photo.
public struct PhotoSizeSet: Sendable, Equatable {
    /// The uploaded picture's format.
    public let format: PictureFormat
    /// The uploaded picture's width.
    public let width: Int
    /// The uploaded picture's height.
    public let height: Int
    /// The box sizes, smallest first (`s`, then `m`, … as far as the picture is large enough).
    public let sizes: [PhotoSize]
    /// The stripped thumbnail (`photoStrippedSize`, type `i`).
    public let stripped: StrippedThumbnail
}

/// Picture bytes → Telegram's photo sizes. Pure: no files, no state, safe from any thread.
public enum PhotoSizes {
    /// The JPEG quality of the box sizes (the stripped thumbnail is always quality 20, the clients' fixed header).
    public static let defaultQuality = 87

    /// Checks `bytes` against `limits`, decodes them (JPEG, PNG or WebP, told by their first bytes) and makes every
    /// box size that applies (`PhotoSizeType.types(for:)`) and the stripped thumbnail.
    ///
    /// Checks run cheapest first and before any pixel is decoded: the byte count (`PHOTO_SAVE_FILE_INVALID`), the
    /// format (`PHOTO_EXT_INVALID`), the header's dimensions (`PHOTO_INVALID_DIMENSIONS`); bytes that then fail to
    /// decode are `IMAGE_PROCESS_FAILED`. Each size is scaled with `Resampler` (Lanczos-3 on premultiplied pixels)
    /// from the smallest picture already made that is at least twice as large, else from the decoded picture;
    /// transparency is flattened onto white. A JPEG is turned as its EXIF orientation says before anything else, so
    /// its dimensions are the displayed ones.
    public static func make(
        from bytes: [UInt8], limits: PhotoLimits = .telegram, quality: Int = defaultQuality
    ) throws(PhotoError) -> PhotoSizeSet {
        guard bytes.count <= limits.maxBytes else { throw .tooManyBytes(count: bytes.count, limit: limits.maxBytes) }
        guard let format = PictureFormat.sniff(bytes) else {
            throw .unknownFormat(firstBytes: bytes.prefix(8).map { hexByte($0) }.joined(separator: " "))
        }
        let (width, height) = try format.dimensions(of: bytes)
        if let rule = limits.brokenRule(width: width, height: height) {
            throw .invalidDimensions(width: width, height: height, rule: rule)
        }
        let picture = try format.decode(bytes)
        guard picture.width == width, picture.height == height else {
            throw .processingFailed(
                format: format, reason: "the header says \(width)×\(height) but the pixels are \(picture.size)")
        }
        var made: [Bitmap] = []  // largest first
        var sizes: [PhotoSize] = []
        for type in PhotoSizeType.types(for: (width, height)).reversed() {
            let bitmap = scaled(picture, toFit: type.box, reusing: made)
            made.append(bitmap)
            do {
                let jpeg = try JPEGEncoder.encode(bitmap, quality: quality)
                sizes.insert(PhotoSize(type: type, width: bitmap.width, height: bitmap.height, jpeg: jpeg), at: 0)
            } catch { throw .processingFailed(format: format, reason: error.description) }
        }
        let tiny = scaled(picture, toFit: StrippedThumbnail.box, reusing: made)
        let stripped: StrippedThumbnail?
        do { stripped = try StrippedThumbnail.encode(tiny) } catch {
            throw .processingFailed(format: format, reason: error.description)
        }
        guard let stripped else {
            throw .processingFailed(
                format: format,
                reason: "libjpeg-turbo wrote a thumbnail header that differs from the one Telegram clients paste on")
        }
        return PhotoSizeSet(format: format, width: width, height: height, sizes: sizes, stripped: stripped)
    }

    /// `picture` scaled to fit `box`, resampled from the smallest of `made` (largest first) that is at least twice
    /// the target's size, so each step stays a modest Lanczos reduction instead of reading the whole picture again.
    static func scaled(_ picture: Bitmap, toFit box: Int, reusing made: [Bitmap]) -> Bitmap {
        let target = PhotoSizeType.fitted((picture.width, picture.height), box: box)
        if target == (picture.width, picture.height) { return picture }
        let long = max(target.width, target.height)
        let source = made.last { max($0.width, $0.height) >= 2 * long } ?? picture
        return Resampler.resize(source, to: PixelSize(width: target.width, height: target.height))
    }

    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
