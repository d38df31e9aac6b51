import ImageCore
import ImageTransform
import JPEGBinding
public import PhotoSizes
public import SyncCore

/// A photo ready to upload: a JPEG at most `OutgoingPhoto.maxSide` on its longer side, and its dimensions.
public struct PreparedPhoto: Sendable, Equatable {
    /// The JPEG file.
    public let jpeg: [UInt8]
    /// Its width and height in pixels (as displayed: a JPEG's EXIF orientation is applied before scaling).
    public let dimensions: PixelDimensions
}

/// Why a picture cannot be prepared as a photo.
public enum OutgoingPhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The picture itself is refused: too many bytes, not JPEG, PNG or WebP, dimensions outside `PhotoLimits`, or
    /// pixels that do not decode. The `PhotoError` carries the name a Telegram server would answer with.
    case invalidPicture(PhotoError)
    /// The file could not be read (path, what went wrong).
    case unreadableFile(path: String, reason: String)
    /// The JPEG could not be written (encoder message).
    case encodeFailed(String)
    /// The account could not store the prepared file (what went wrong).
    case storage(String)

    public var description: String {
        switch self {
        case .invalidPicture(let error): return error.description
        case .unreadableFile(let path, let reason): return "cannot read the picture at \(path): \(reason)"
        case .encodeFailed(let reason): return "cannot encode the photo as JPEG: \(reason)"
        case .storage(let reason): return "cannot store the prepared photo in the account: \(reason)"
        }
    }
}

/// Prepares a picture the way Telegram-iOS does before sending it as a photo: scaled down (never up) so that its
/// longer side is at most 1280 pixels, aspect kept, and JPEG-encoded at quality 0.6 —
/// Telegram-iOS `submodules/LegacyMediaPickerUI/Sources/LegacyMediaPickers.swift`
/// (`legacyAssetPickerEnqueueMessages`: `aspectFittedOrSmaller(CGSize(width: 1280.0, height: 1280.0))`, then
/// `compressImageToJPEG(scaledImage, quality: 0.6, …)`). ImageIO's 0.6 is taken as IJG quality 60 here; the server
/// makes the photo's sizes from this JPEG.
public enum OutgoingPhoto {
    /// The longest side an outgoing photo keeps.
    public static let maxSide = 1280
    /// The JPEG quality (1…100) of the prepared photo.
    public static let quality = 60

    /// Prepares picture bytes (JPEG with its EXIF orientation applied, PNG with transparency flattened onto white,
    /// or still WebP). `limits` are checked before any pixel is decoded (Telegram's photo limits by default: 10 MB,
    /// width + height ≤ 10,000, aspect ratio ≤ 20); the decoders' own pixel caps follow the input's size.
    public static func prepare(
        _ bytes: [UInt8], limits: PhotoLimits = .telegram
    ) throws(OutgoingPhotoError)
        -> PreparedPhoto
    {
        let picture = try decode(bytes, limits: limits)
        let target = PhotoSizeType.fitted((picture.width, picture.height), box: maxSide)
        let scaled =
            target == (picture.width, picture.height)
            ? picture : Resampler.resize(picture, to: PixelSize(width: target.width, height: target.height))
        let jpeg: [UInt8]
        do throws(JPEGError) { jpeg = try JPEGEncoder.encode(scaled, quality: quality) } catch {
            throw .encodeFailed(error.description)
        }
        return PreparedPhoto(
            jpeg: jpeg, dimensions: PixelDimensions(width: Int32(scaled.width), height: Int32(scaled.height)))
    }

    /// Prepares the picture in the file at `path` (at most `limits.maxBytes` are read).
    public static func prepare(
        path: String, limits: PhotoLimits = .telegram
    ) throws(OutgoingPhotoError)
        -> PreparedPhoto
    {
        let bytes: [UInt8]
        do throws(LocalFiles.Failure) { bytes = try LocalFiles.read(path, maxBytes: limits.maxBytes) } catch {
            switch error {
            case .tooLarge(let size): throw .invalidPicture(.tooManyBytes(count: size, limit: limits.maxBytes))
            case .unreadable(let reason): throw .unreadableFile(path: path, reason: reason)
            }
        }
        return try prepare(bytes, limits: limits)
    }

    /// The picture decoded after `limits` are checked against its byte count, format and header dimensions.
    static func decode(_ bytes: [UInt8], limits: PhotoLimits) throws(OutgoingPhotoError) -> Bitmap {
        guard bytes.count <= limits.maxBytes else {
            throw .invalidPicture(.tooManyBytes(count: bytes.count, limit: limits.maxBytes))
        }
        guard let format = PictureFormat.sniff(bytes) else {
            let first = bytes.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
            throw .invalidPicture(.unknownFormat(firstBytes: first))
        }
        do throws(PhotoError) {
            let (width, height) = try format.dimensions(of: bytes)
            if let rule = limits.brokenRule(width: width, height: height) {
                throw PhotoError.invalidDimensions(width: width, height: height, rule: rule)
            }
            return try format.decode(bytes)
        } catch {
            throw .invalidPicture(error)
        }
    }
}
