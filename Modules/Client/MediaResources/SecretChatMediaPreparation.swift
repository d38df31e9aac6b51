import ImageCore
import ImageTransform
import JPEGBinding
import PhotoSizes
import SyncCore
public import TelegramCore

/// Media prepared for a secret chat as for any chat (`OutgoingPhoto`, `OutgoingVoiceNote`), in the form the secret
/// layer sends it: the photo with a thumbnail inside the encrypted message (core.telegram.org `/api/end-to-end`:
/// `decryptedMessageMediaPhoto`'s `thumb` with `thumb_w`/`thumb_h`, a small JPEG carried inside the message; kept
/// here within 90 × 90, the `s` box of the photo sizes).
public enum SecretChatMediaPreparation {
    /// A thumbnail's longer side at most.
    public static let thumbnailSide = 90
    /// The thumbnail's JPEG quality.
    public static let thumbnailQuality = 50

    /// The picture at `path` as a secret chat's photo: re-encoded as any outgoing photo, with its thumbnail.
    public static func photo(path: String) throws(OutgoingPhotoError) -> SecretChatOutgoingMedia {
        let prepared = try OutgoingPhoto.prepare(path: path)
        return .photo(
            jpeg: prepared.jpeg, width: prepared.dimensions.width, height: prepared.dimensions.height,
            thumbnail: try thumbnail(of: prepared))
    }

    /// The WAV file at `path` as a secret chat's voice note (Ogg/Opus, duration and waveform).
    public static func voice(path: String) throws(OutgoingVoiceNoteError) -> SecretChatOutgoingMedia {
        let note = try OutgoingVoiceNote.prepare(path: path)
        return .voice(ogg: note.ogg, duration: note.duration, waveform: note.waveform)
    }

    /// The prepared photo scaled to fit `thumbnailSide` and encoded as a small JPEG.
    public static func thumbnail(of photo: PreparedPhoto) throws(OutgoingPhotoError) -> SecretChatThumbnail {
        let picture: Bitmap
        do throws(PhotoError) { picture = try PictureFormat.jpeg.decode(photo.jpeg) } catch {
            throw .invalidPicture(error)
        }
        let target = PhotoSizeType.fitted((picture.width, picture.height), box: thumbnailSide)
        let scaled = Resampler.resize(
            picture, to: PixelSize(width: max(1, target.width), height: max(1, target.height)))
        do throws(JPEGError) {
            return SecretChatThumbnail(
                jpeg: try JPEGEncoder.encode(scaled, quality: thumbnailQuality), width: Int32(scaled.width),
                height: Int32(scaled.height))
        } catch {
            throw .encodeFailed(error.description)
        }
    }
}
