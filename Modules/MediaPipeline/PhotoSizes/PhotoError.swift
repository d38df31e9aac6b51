/// Why a picture cannot become a Telegram photo. Each case carries the RPC error name Telegram's servers answer
/// with (`telegramError`), so a server can reply with it as it is; `description` says what was wrong and where.
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More bytes than `PhotoLimits.maxBytes` (Telegram: photos up to 10 MB).
    case tooManyBytes(count: Int, limit: Int)
    /// Not JPEG, PNG or WebP by its first bytes (shown in hex).
    case unknownFormat(firstBytes: String)
    /// The header's dimensions break a rule of `PhotoLimits` (`rule` names it).
    case invalidDimensions(width: Int, height: Int, rule: String)
    /// The bytes claim a known format but do not decode (`reason` is the decoder's message), or an encode failed.
    case processingFailed(format: PictureFormat, reason: String)

    /// The error name a Telegram server answers with: `PHOTO_SAVE_FILE_INVALID` (too big: Telethon's error list
    /// describes it as a photo over 10 MB), `PHOTO_EXT_INVALID`, `PHOTO_INVALID_DIMENSIONS`, `IMAGE_PROCESS_FAILED`.
    public var telegramError: String {
        switch self {
        case .tooManyBytes: return "PHOTO_SAVE_FILE_INVALID"
        case .unknownFormat: return "PHOTO_EXT_INVALID"
        case .invalidDimensions: return "PHOTO_INVALID_DIMENSIONS"
        case .processingFailed: return "IMAGE_PROCESS_FAILED"
        }
    }

    public var description: String {
        switch self {
        case .tooManyBytes(let count, let limit):
            return "\(telegramError): the picture is \(count) bytes, over the photo limit of \(limit) bytes; "
                + "send it smaller or as a document"
        case .unknownFormat(let firstBytes):
            return "\(telegramError): the bytes are not JPEG, PNG or WebP (they start with \(firstBytes)); "
                + "convert the picture to one of those"
        case .invalidDimensions(let width, let height, let rule):
            return "\(telegramError): the header says \(width)×\(height) pixels, which breaks the rule: \(rule)"
        case .processingFailed(let format, let reason):
            return "\(telegramError): the \(format.rawValue) picture cannot be processed: \(reason)"
        }
    }
}
