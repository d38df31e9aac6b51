import ServerStore
import TLRuntime
import TelegramApi

/// Photos: an uploaded picture becomes Telegram's sizes, made by the server.
extension ServerBackend {
    func apiPhoto(_ photo: PhotoRecord) -> Api.Photo {
        var reader = TLReader(photo.sizes)
        let sizes = (try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.PhotoSize.parse(&r) }) ?? []
        return .photo(
            .init(id: photo.id, accessHash: photo.accessHash, fileReference: Self.fileReference(photo.id), date: photo.date, sizes: sizes, dcId: photo.dc))
    }

    func makePhoto(_ file: Api.InputFile, caller: Caller) throws -> Api.Photo {
        // Photo sizes need the server's JPEG codec (MediaPipeline's image modules), which lands next.
        throw APIError.badRequest("PHOTO_INVALID")
    }
}
