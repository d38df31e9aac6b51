/// The MIME type of a file sent as a document, from its extension (the common ones; anything else is
/// `application/octet-stream`), and whether it is a picture to send as a photo.
public enum MimeTypes {
    static let table: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
        "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "json": "application/json",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "mp4": "video/mp4",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "wav": "audio/x-wav",
        "tgs": "application/x-tgsticker", "html": "text/html", "csv": "text/csv", "webm": "video/webm",
    ]

    /// The type for `fileName`.
    public static func guess(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else {
            return "application/octet-stream"
        }
        return table[fileName[fileName.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether `fileName` is a JPEG, PNG or WebP picture (what `OutgoingPhoto` prepares).
    public static func isPhoto(_ fileName: String) -> Bool {
        ["image/jpeg", "image/png", "image/webp"].contains(guess(fileName))
    }
}
