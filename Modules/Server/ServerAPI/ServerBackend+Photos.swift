import Logging
import PhotoSizes
import ServerStore
import TLRuntime
import TelegramApi

/// Photos: an uploaded picture becomes Telegram's sizes, made by the server (MediaPipeline's `PhotoSizes`: the
/// stripped thumbnail `i`, then `s`, `m`, `x`, `y`, `w` as the picture allows, each a JPEG in the vault).
extension ServerBackend {
    func apiPhoto(_ photo: PhotoRecord) -> Api.Photo {
        var reader = TLReader(photo.sizes)
        let sizes =
            (try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.PhotoSize.parse(&r) })
            ?? []
        return .photo(
            .init(
                id: photo.id, accessHash: photo.accessHash, fileReference: fileReference(.photo, photo.id),
                date: photo.date, sizes: sizes, dcId: photo.dc))
    }

    /// `photos.uploadProfilePhoto`: the picture becomes a photo like any other and the caller's profile photo.
    func uploadProfilePhoto(_ call: Api.functions.photos.uploadProfilePhoto, caller: Caller) throws -> Api.photos.Photo
    {
        guard call.bot == nil, call.video == nil, !call.fallback else { throw APIError.badRequest("PHOTO_INVALID") }
        guard let file = call.file else { throw APIError.badRequest("PHOTO_FILE_MISSING") }
        let photo = try makePhoto(file, caller: caller)
        let date = now
        let (user, _) = try store.write(
            { [self] tx throws -> (UserRecord?, [Push]) in
                guard var user = try tx.user(id: caller.userId) else { return (nil, []) }
                user.photo = photo.serialized()
                try tx.update(user)
                // `updateUser` (core.telegram.org: "the user's profile changed, refetch it"), with the user attached.
                let update = Api.Update.updateUser(.init(userId: user.id))
                return (user, try profilePushes(of: user, update, date: date, tx: tx))
            }, then: { [self] in send($0.1, caller: caller) })
        guard let user else { throw APIError.authKeyUnregistered }
        return .photo(
            .init(photo: photo, users: [try store.read { tx in try apiUser(user, viewer: caller.userId, tx: tx) }]))
    }

    /// Photo `photoId` if it is the current profile photo of `peer`, which the caller must be able to reach
    /// (`PEER_ID_INVALID` otherwise; a channel as `channelAccess` lets them read it); basic groups have no photos
    /// here.
    func profilePhoto(
        _ photoId: Int64, of peer: Api.InputPeer, caller: Caller, tx: StoreTransaction
    ) throws -> PhotoRecord? {
        if let access = try channelAccess(peer, caller: caller, need: .read, tx: tx) {
            guard let bytes = access.channel.photo, case .photo(let current)? = try? Api.Photo(tlBytes: bytes),
                current.id == photoId
            else { return nil }
            return try tx.photo(id: photoId)
        }
        // A basic group's photo: for its members only.
        if case .inputPeerChat(let input) = peer {
            guard let chat = try tx.chat(id: input.chatId),
                chat.members.contains(where: { $0.userId == caller.userId }),
                let bytes = chat.photo, case .photo(let current)? = try? Api.Photo(tlBytes: bytes),
                current.id == photoId
            else { return nil }
            return try tx.photo(id: photoId)
        }
        let owner = try resolve(peer, caller: caller, tx: tx)
        guard owner.kind == .user, let user = try tx.user(id: owner.id), let bytes = user.photo,
            case .photo(let current)? = try? Api.Photo(tlBytes: bytes), current.id == photoId
        else { return nil }
        return try tx.photo(id: photoId)
    }

    /// A user's profile photo as `User.photo` shows it: its id, DC and stripped thumbnail.
    func profilePhoto(_ user: UserRecord) -> Api.UserProfilePhoto? {
        guard let bytes = user.photo, case .photo(let photo)? = try? Api.Photo(tlBytes: bytes) else { return nil }
        let stripped = photo.sizes.compactMap { size -> [UInt8]? in
            if case .photoStrippedSize(let s) = size { return s.bytes }
            return nil
        }.first
        return .userProfilePhoto(.init(photoId: photo.id, strippedThumb: stripped, dcId: photo.dcId))
    }

    func makePhoto(_ file: Api.InputFile, caller: Caller) throws -> Api.Photo {
        let (blob, _) = try assemble(file, caller: caller)
        // Checked before the bytes are read: a photo is at most 10 MB.
        guard blob.size <= Int64(PhotoLimits.telegram.maxBytes) else {
            throw APIError.badRequest("PHOTO_SAVE_FILE_INVALID")
        }
        let picture = try files.read(sha256: blob.sha256, offset: 0, limit: Int(blob.size))
        let made: PhotoSizeSet
        do {
            made = try PhotoSizes.make(from: picture)
        } catch {
            throw APIError.badRequest(error.telegramError)
        }
        return try storePhoto(made, owner: caller.userId, dc: caller.dc)
    }

    /// A link preview's picture (`WebPagePreviews`) as a photo on DC `dc`, owned by no account; `nil` when it is not a
    /// picture `PhotoSizes` makes sizes of (not JPEG, PNG or WebP, over `maximumImageBytes`, width + height over
    /// `maximumImageSideSum`, sides further apart than 20:1) or cannot be stored.
    func makeWebPagePhoto(_ picture: [UInt8], dc: Int32) -> Api.Photo? {
        let rules = webPages.rules
        let limits = PhotoLimits(
            maxBytes: rules.maximumImageBytes, maxSideSum: rules.maximumImageSideSum,
            maxAspectRatio: PhotoLimits.telegram.maxAspectRatio)
        do {
            return try storePhoto(PhotoSizes.make(from: picture, limits: limits), owner: 0, dc: dc)
        } catch {
            logger.info("a link preview's picture was not made a photo", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Stores `made`'s sizes in the vault and the photo in the store.
    private func storePhoto(_ made: PhotoSizeSet, owner: Int64, dc: Int32) throws -> Api.Photo {
        var sizes: [Api.PhotoSize] = [.photoStrippedSize(.init(type: "i", bytes: made.stripped.bytes))]
        var stored: [String: (sha256: String, size: Int64)] = [:]
        for size in made.sizes {
            let kept = try files.store(size.jpeg)
            stored[size.type.rawValue] = (kept.sha256, kept.size)
            sizes.append(
                .photoSize(
                    .init(
                        type: size.type.rawValue, w: Int32(size.width), h: Int32(size.height),
                        size: Int32(size.byteSize))))
        }
        let photo = PhotoRecord(
            id: Self.randomId(), accessHash: Self.randomId(), owner: owner, dc: dc, date: now,
            sizes: Reply.vector(sizes),
            files: stored)
        try store.write { tx in try tx.insert(photo) }
        return apiPhoto(photo)
    }
}
