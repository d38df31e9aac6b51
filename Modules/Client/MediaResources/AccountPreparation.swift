public import PhotoSizes
public import SyncCore
public import TelegramCore

extension OutgoingPhoto {
    /// Prepares picture bytes (`prepare(_:limits:)`) and stores the JPEG in `account`'s MediaBox through
    /// `Account.prepareImage(path:dimensions:)`: the `TelegramMediaImage` to send with `EnqueueMessage(text:media:)`.
    public static func prepare(
        _ bytes: [UInt8], for account: Account, limits: PhotoLimits = .telegram
    ) throws(OutgoingPhotoError) -> TelegramMediaImage {
        try store(try prepare(bytes, limits: limits), in: account)
    }

    /// Prepares the picture in the file at `path` for `account` (as `prepare(_:for:limits:)`).
    public static func prepare(
        path: String, for account: Account, limits: PhotoLimits = .telegram
    ) throws(OutgoingPhotoError) -> TelegramMediaImage {
        try store(try prepare(path: path, limits: limits), in: account)
    }

    /// `photo` written to a temporary file and stored by `Account.prepareImage(path:dimensions:)`.
    static func store(_ photo: PreparedPhoto, in account: Account) throws(OutgoingPhotoError) -> TelegramMediaImage {
        do {
            return try LocalFiles.withTemporaryFile(photo.jpeg, suffix: ".jpg") { path in
                try account.prepareImage(path: path, dimensions: photo.dimensions)
            }
        } catch { throw .storage("\(error)") }
    }
}

extension OutgoingVoiceNote {
    /// The MIME type of a voice note (Ogg/Opus).
    public static let mimeType = "audio/ogg"

    /// Encodes the WAV file at `path` (`prepare(path:)`) and stores the Ogg/Opus file in `account`'s MediaBox through
    /// `Account.prepareFile`, with `audio/ogg` and the voice attribute (duration, 63-byte waveform): the
    /// `TelegramMediaFile` to send with `EnqueueMessage(text:file:)`.
    public static func prepare(path: String, for account: Account) throws(OutgoingVoiceNoteError) -> TelegramMediaFile {
        let note = try prepare(path: path)
        do {
            return try LocalFiles.withTemporaryFile(note.ogg, suffix: ".ogg") { path in
                try account.prepareFile(
                    path: path, name: "voice.ogg", mimeType: mimeType, attributes: [note.attribute])
            }
        } catch { throw .storage("\(error)") }
    }
}
