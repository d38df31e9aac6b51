import PhotoSizes
import ServerStore
import TLRuntime
import TelegramApi

/// Photos: an uploaded picture becomes Telegram's sizes, made by the server (MediaPipeline's `PhotoSizes`: the
/// stripped thumbnail `i`, then `s`, `m`, `x`, `y`, `w` as the picture allows, each a JPEG in the vault).
extension ServerBackend {
    func apiPhoto(_ photo: PhotoRecord) -> Api.Photo {
        var reader = TLReader(photo.sizes)
        let sizes = (try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.PhotoSize.parse(&r) }) ?? []
        return .photo(
            .init(id: photo.id, accessHash: photo.accessHash, fileReference: Self.fileReference(photo.id), date: photo.date, sizes: sizes, dcId: photo.dc))
    }

    func makePhoto(_ file: Api.InputFile, caller: Caller) throws -> Api.Photo {
        let (blob, _) = try assemble(file, caller: caller)
        // Checked before the bytes are read: a photo is at most 10 MB.
        guard blob.size <= Int64(PhotoLimits.telegram.maxBytes) else { throw APIError.badRequest("PHOTO_SAVE_FILE_INVALID") }
        let picture = try files.read(sha256: blob.sha256, offset: 0, limit: Int(blob.size))
        let made: PhotoSizeSet
        do {
            made = try PhotoSizes.make(from: picture)
        } catch {
            throw APIError.badRequest(error.telegramError)
        }
        var sizes: [Api.PhotoSize] = [.photoStrippedSize(.init(type: "i", bytes: made.stripped.bytes))]
        var stored: [String: (sha256: String, size: Int64)] = [:]
        for size in made.sizes {
            let kept = try files.store(size.jpeg)
            stored[size.type.rawValue] = (kept.sha256, kept.size)
            sizes.append(.photoSize(.init(type: size.type.rawValue, w: Int32(size.width), h: Int32(size.height), size: Int32(size.byteSize))))
        }
        let photo = PhotoRecord(
            id: Self.randomId(), accessHash: Self.randomId(), owner: caller.userId, dc: caller.dc, date: now, sizes: Reply.vector(sizes),
            files: stored)
        try store.write { tx in try tx.insert(photo) }
        return apiPhoto(photo)
    }
}
