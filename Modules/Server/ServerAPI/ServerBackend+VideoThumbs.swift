import PhotoSizes
import ServerStore
import TLRuntime
import TelegramApi
import VideoBinding

/// A video document's thumbnails, made by the server from the first frame as Telegram's servers do: `thumbs` holds
/// `photoStrippedSize` `i` and `photoSize` `m` (the frame in a 320 box), whatever thumbnail the client uploaded
/// (core.telegram.org/api/files, "Video thumbnails"; Telegram-iOS reads them as `previewRepresentations`).
///
/// The store keeps `m` inline as a `photoCachedSize` in the document's `thumbs` column, so no table changes; a
/// client sees a `photoSize` and downloads the JPEG with `inputDocumentFileLocation.thumb_size = "m"`.
extension ServerBackend {
    /// Videos larger than this get no server-made thumbnail: FFmpeg reads the file from memory.
    static let videoThumbnailMaxBytes: Int64 = 64 * 1_048_576

    /// The stored `thumbs` vector for a video document's bytes, or nil when the document is not a video, is too large
    /// or its first frame does not decode (the document is kept all the same, as Telegram keeps it).
    func videoThumbs(
        blob: FileVault.Blob, mime: String, attributes: [Api.DocumentAttribute]
    ) -> [UInt8]? {
        let isVideo = attributes.contains {
            switch $0 {
            case .documentAttributeVideo, .documentAttributeAnimated: return true
            default: return false
            }
        }
        guard isVideo || mime.hasPrefix("video/"), blob.size <= Self.videoThumbnailMaxBytes,
            let bytes = try? files.read(sha256: blob.sha256, offset: 0, limit: Int(blob.size)),
            let made = try? VideoDecoder.thumbnail(
                bytes, limits: VideoLimits(maxBytes: Int(Self.videoThumbnailMaxBytes)))
        else { return nil }
        var thumbs: [Api.PhotoSize] = []
        if let stripped = made.thumbnails.stripped {
            thumbs.append(.photoStrippedSize(.init(type: "i", bytes: stripped.bytes)))
        }
        let size = made.thumbnails.size
        thumbs.append(
            .photoCachedSize(
                .init(type: size.type.rawValue, w: Int32(size.width), h: Int32(size.height), bytes: size.jpeg)))
        return Reply.vector(thumbs)
    }

    /// The stored thumbnails as a client sees them: the inline JPEG becomes a `photoSize` of its length.
    func apiThumbs(_ document: DocumentRecord) -> [Api.PhotoSize]? {
        storedThumbs(document).map { thumbs in
            thumbs.map { thumb in
                guard case .photoCachedSize(let cached) = thumb else { return thumb }
                return .photoSize(.init(type: cached.type, w: cached.w, h: cached.h, size: Int32(cached.bytes.count)))
            }
        }
    }

    /// The JPEG of the thumbnail `type` of `document`, if it has one.
    func thumbBytes(_ document: DocumentRecord, type: String) -> [UInt8]? {
        for thumb in storedThumbs(document) ?? [] {
            if case .photoCachedSize(let cached) = thumb, cached.type == type { return cached.bytes }
        }
        return nil
    }

    private func storedThumbs(_ document: DocumentRecord) -> [Api.PhotoSize]? {
        guard let stored = document.thumbs, !stored.isEmpty else { return nil }
        var reader = TLReader(stored)
        return try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.PhotoSize.parse(&r) }
    }
}
