import CryptoUtils
import ServerStore
import TLRuntime
import TelegramApi

/// `upload.*` and the media a message can carry (core.telegram.org "Uploading and Downloading Files"). A file lives
/// on the DC of the account that uploaded it; `upload.getFile` anywhere else answers `FILE_MIGRATE_X`.
extension ServerBackend {
    func saveFilePart(_ call: Api.functions.upload.saveFilePart, caller: Caller) throws -> [UInt8] {
        try FileTransferRules.checkPart(part: call.filePart, totalParts: nil, size: call.bytes.count)
        try savePart(fileId: call.fileId, part: call.filePart, bytes: call.bytes, caller: caller)
        return Reply.bool(true)
    }

    func saveBigFilePart(_ call: Api.functions.upload.saveBigFilePart, caller: Caller) throws -> [UInt8] {
        try FileTransferRules.checkPart(part: call.filePart, totalParts: call.fileTotalParts, size: call.bytes.count)
        try savePart(fileId: call.fileId, part: call.filePart, bytes: call.bytes, caller: caller)
        return Reply.bool(true)
    }

    private func savePart(fileId: Int64, part: Int32, bytes: [UInt8], caller: Caller) throws {
        do {
            try files.savePart(key: caller.authKeyId, fileId: fileId, part: Int(part), bytes: bytes)
        } catch FileVault.Failure.pendingBytesExceeded {
            throw APIError.badRequest("FILE_PARTS_INVALID")
        }
    }

    /// Assembles an uploaded `InputFile` into the vault.
    func assemble(_ input: Api.InputFile, caller: Caller) throws -> (blob: FileVault.Blob, name: String) {
        let (id, parts, name, big): (Int64, Int32, String, Bool)
        switch input {
        case .inputFile(let file): (id, parts, name, big) = (file.id, file.parts, file.name, false)
        case .inputFileBig(let file): (id, parts, name, big) = (file.id, file.parts, file.name, true)
        case .inputFileStoryDocument: throw APIError.badRequest("FILE_ID_INVALID")
        }
        guard parts > 0, parts <= FileTransferRules.maximumParts else {
            throw APIError.badRequest("FILE_PARTS_INVALID")
        }
        let blob: FileVault.Blob
        do {
            blob = try files.assemble(key: caller.authKeyId, fileId: id, parts: Int(parts))
        } catch .missingPart(let part) {
            throw APIError.badRequest("FILE_PART_\(part)_MISSING")
        } catch .partSizeChanged {
            throw APIError.badRequest("FILE_PART_SIZE_CHANGED")
        } catch {
            throw error
        }
        try FileTransferRules.checkPartSize(blob.partSize, parts: parts)
        // Files over 10 MB must come in big-file parts.
        guard big || blob.size <= FileTransferRules.bigFileThreshold else {
            throw APIError.badRequest("FILE_PARTS_INVALID")
        }
        return (blob, name)
    }

    static func randomId() -> Int64 { Int64(bitPattern: SecureRandom.uint64() & 0x7fff_ffff_ffff_ffff) }

    func apiDocument(_ document: DocumentRecord) -> Api.Document {
        var reader = TLReader(document.attributes ?? [])
        let attributes =
            (try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.DocumentAttribute.parse(&r)
            }) ?? []
        return .document(
            .init(
                id: document.id, accessHash: document.accessHash, fileReference: fileReference(.document, document.id),
                date: document.date,
                mimeType: document.mime, size: document.size, thumbs: apiThumbs(document), dcId: document.dc,
                attributes: attributes))
    }

    /// What kind of media a document is, for search filters.
    static func mediaKind(of attributes: [Api.DocumentAttribute]) -> MediaKind {
        // A sticker is a sticker whatever else it carries, in any order (a video sticker's `documentAttributeVideo`).
        if attributes.contains(where: { if case .documentAttributeSticker = $0 { true } else { false } }) {
            return .sticker
        }
        for attribute in attributes {
            switch attribute {
            case .documentAttributeAudio(let audio): return audio.voice ? .voice : .audio
            case .documentAttributeSticker: return .sticker
            case .documentAttributeVideo: return .video
            case .documentAttributeAnimated: return .gif
            default: continue
            }
        }
        return .document
    }

    /// The `MessageMedia` an `InputMedia` becomes, stored (uploaded files assembled) on the caller's DC.
    func media(_ input: Api.InputMedia, caller: Caller) throws -> (media: Api.MessageMedia, kind: MediaKind) {
        switch input {
        case .inputMediaUploadedDocument(let upload):
            let (blob, name) = try assemble(upload.file, caller: caller)
            var attributes = upload.attributes
            if !attributes.contains(where: {
                if case .documentAttributeFilename = $0 { return true }; return false
            }), !name.isEmpty {
                attributes.append(.documentAttributeFilename(.init(fileName: name)))
            }
            guard attributes.count <= 16 else { throw APIError.badRequest("MEDIA_INVALID") }
            let document = DocumentRecord(
                id: Self.randomId(), accessHash: Self.randomId(), owner: caller.userId, dc: caller.dc, date: now,
                mime: String(upload.mimeType.prefix(128)), size: blob.size, sha256: blob.sha256,
                attributes: Reply.vector(attributes),
                thumbs: videoThumbs(blob: blob, mime: upload.mimeType, attributes: attributes))
            try store.write { tx in try tx.insert(document) }
            let kind = Self.mediaKind(of: attributes)
            return (.messageMediaDocument(.init(voice: kind == .voice, document: apiDocument(document))), kind)
        case .inputMediaDocument(let existing):
            guard case .inputDocument(let input) = existing.id,
                let document = try store.read({ tx in try tx.document(id: input.id) }),
                document.accessHash == input.accessHash
            else { throw APIError.badRequest("MEDIA_INVALID") }
            try checkFileReference(input.fileReference, .document, document.id)
            let api = apiDocument(document)
            guard case .document(let fields) = api else { throw APIError.internalError }
            let kind = Self.mediaKind(of: fields.attributes)
            return (.messageMediaDocument(.init(voice: kind == .voice, document: api)), kind)
        case .inputMediaUploadedPhoto(let upload):
            return (.messageMediaPhoto(.init(photo: try makePhoto(upload.file, caller: caller))), .photo)
        case .inputMediaPhoto(let existing):
            guard case .inputPhoto(let input) = existing.id,
                let photo = try store.read({ tx in try tx.photo(id: input.id) }),
                photo.accessHash == input.accessHash
            else { throw APIError.badRequest("MEDIA_INVALID") }
            try checkFileReference(input.fileReference, .photo, photo.id)
            return (.messageMediaPhoto(.init(photo: apiPhoto(photo))), .photo)
        case .inputMediaPoll(let poll):
            return (try makePoll(poll, caller: caller), .poll)
        default:
            if let place = try placeMedia(input, caller: caller) { return place }
            throw APIError.badRequest("MEDIA_INVALID")
        }
    }

    func getFile(_ call: Api.functions.upload.getFile, caller: Caller) throws -> Api.upload.File {
        try FileTransferRules.checkDownload(offset: call.offset, limit: call.limit, precise: call.precise)
        let (sha256, dc, type): (String, Int32, Api.storage.FileType)
        switch call.location {
        case .inputDocumentFileLocation(let location):
            guard let document = try store.read({ tx in try tx.document(id: location.id) }),
                document.accessHash == location.accessHash
            else {
                throw APIError.badRequest("FILE_ID_INVALID")
            }
            try checkFileReference(location.fileReference, .document, document.id)
            if !location.thumbSize.isEmpty {
                // A server-made thumbnail, kept inline with the document.
                guard let jpeg = thumbBytes(document, type: location.thumbSize) else {
                    throw APIError.badRequest("FILE_ID_INVALID")
                }
                guard document.dc == caller.dc else { throw APIError.migrate("FILE", to: document.dc) }
                let start = Int(min(call.offset, Int64(jpeg.count)))
                let end = min(jpeg.count, start + Int(call.limit))
                return .file(.init(type: .fileJpeg, mtime: now, bytes: Array(jpeg[start..<end])))
            }
            (sha256, dc, type) = (document.sha256, document.dc, .filePartial)
        case .inputPhotoFileLocation(let location):
            guard let photo = try store.read({ tx in try tx.photo(id: location.id) }),
                photo.accessHash == location.accessHash,
                let file = photo.files[location.thumbSize]
            else { throw APIError.badRequest("FILE_ID_INVALID") }
            try checkFileReference(location.fileReference, .photo, photo.id)
            (sha256, dc, type) = (file.sha256, photo.dc, .fileJpeg)
        case .inputPeerPhotoFileLocation(let location):
            // A profile photo: `big` is its largest size, else its smallest box size. Only the current profile photo
            // of a peer the caller may reach (access hash or membership checked) is served.
            guard
                let photo = try store.read({ tx in
                    try profilePhoto(location.photoId, of: location.peer, caller: caller, tx: tx)
                })
            else {
                throw APIError.badRequest("FILE_ID_INVALID")
            }
            let order = ["s", "m", "x", "y", "w"]
            let types = order.filter { photo.files[$0] != nil }
            guard let chosen = location.big ? types.last : types.first, let file = photo.files[chosen] else {
                throw APIError.badRequest("FILE_ID_INVALID")
            }
            (sha256, dc, type) = (file.sha256, photo.dc, .fileJpeg)
        case .inputEncryptedFileLocation(let location):
            // A secret chat's file, served as its uploader encrypted it.
            guard let file = try store.read({ tx in try tx.encryptedFile(id: location.id) }),
                file.accessHash == location.accessHash
            else {
                throw APIError.badRequest("FILE_ID_INVALID")
            }
            (sha256, dc, type) = (file.sha256, file.dc, .filePartial)
        default:
            throw APIError.badRequest("LOCATION_INVALID")
        }
        guard dc == caller.dc else { throw APIError.migrate("FILE", to: dc) }
        let bytes = try files.read(sha256: sha256, offset: call.offset, limit: Int(call.limit))
        return .file(.init(type: type, mtime: now, bytes: bytes))
    }
}
