public import Postbox
public import SyncCore
public import TelegramApi

/// The representations of an API photo or document thumbnail list, with the stripped thumbnail apart.
private func apiRepresentations(
    _ sizes: [Api.PhotoSize], resource: (String) -> TelegramMediaResource
) -> (representations: [TelegramMediaImageRepresentation], stripped: [UInt8]?) {
    var result: [TelegramMediaImageRepresentation] = []
    var stripped: [UInt8]?
    for size in sizes {
        switch size {
        case .photoSize(let size):
            result.append(
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: size.w, height: size.h), resource: resource(size.type),
                    type: size.type, byteSize: Int64(size.size)))
        case .photoCachedSize(let size):
            result.append(
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: size.w, height: size.h), resource: resource(size.type),
                    type: size.type, byteSize: Int64(size.bytes.count), cachedBytes: size.bytes))
        case .photoSizeProgressive(let size):
            result.append(
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: size.w, height: size.h), resource: resource(size.type),
                    type: size.type, byteSize: size.sizes.last.map(Int64.init), progressiveSizes: size.sizes))
        case .photoStrippedSize(let size):
            stripped = size.bytes
        case .photoSizeEmpty, .photoPathSize:
            break
        }
    }
    return (result, stripped)
}

extension TelegramMediaImage {
    /// A photo from the API (Telegram-iOS `telegramMediaImageFromApiPhoto`); `nil` for `photoEmpty`.
    public init?(_ photo: Api.Photo) {
        guard case .photo(let photo) = photo else { return nil }
        let (sizes, stripped) = apiRepresentations(photo.sizes) { type in
            .cloudPhotoSize(
                datacenterId: photo.dcId, photoId: photo.id, accessHash: photo.accessHash,
                fileReference: photo.fileReference, sizeSpec: type)
        }
        self.init(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: photo.id), representations: sizes,
            immediateThumbnailData: stripped,
            reference: ImageReference(accessHash: photo.accessHash, fileReference: photo.fileReference),
            date: photo.date, hasStickers: photo.hasStickers)
    }
}

extension StickerPackReference {
    /// A sticker set reference from the API; `nil` for `inputStickerSetEmpty`.
    public init?(_ set: Api.InputStickerSet) {
        switch set {
        case .inputStickerSetEmpty: return nil
        case .inputStickerSetID(let set): self = .id(id: set.id, accessHash: set.accessHash)
        case .inputStickerSetShortName(let set): self = .name(set.shortName)
        case .inputStickerSetAnimatedEmoji: self = .animatedEmoji
        case .inputStickerSetDice(let set): self = .dice(set.emoticon)
        default: self = .other(constructorName(of: set))
        }
    }
}

extension TelegramMediaFileAttribute {
    /// A document attribute from the API.
    public init(_ attribute: Api.DocumentAttribute) {
        switch attribute {
        case .documentAttributeImageSize(let size):
            self = .imageSize(PixelDimensions(width: size.w, height: size.h))
        case .documentAttributeAnimated:
            self = .animated
        case .documentAttributeSticker(let sticker):
            self = .sticker(
                displayText: sticker.alt, packReference: StickerPackReference(sticker.stickerset), isMask: sticker.mask)
        case .documentAttributeVideo(let video):
            self = .video(
                duration: video.duration, size: PixelDimensions(width: video.w, height: video.h),
                isRoundMessage: video.roundMessage, supportsStreaming: video.supportsStreaming, noSound: video.nosound)
        case .documentAttributeAudio(let audio):
            self = .audio(
                isVoice: audio.voice, duration: audio.duration, title: audio.title, performer: audio.performer,
                waveform: audio.waveform)
        case .documentAttributeFilename(let name):
            self = .fileName(name.fileName)
        case .documentAttributeHasStickers:
            self = .hasLinkedStickers
        case .documentAttributeCustomEmoji(let emoji):
            self = .customEmoji(alt: emoji.alt, packReference: StickerPackReference(emoji.stickerset))
        }
    }
}

extension TelegramMediaFile {
    /// A document from the API (Telegram-iOS `telegramMediaFileFromApiDocument`); `nil` for `documentEmpty`.
    public init?(_ document: Api.Document) {
        guard case .document(let document) = document else { return nil }
        let (thumbnails, stripped) = apiRepresentations(document.thumbs ?? []) { type in
            .cloudDocumentSize(
                datacenterId: document.dcId, documentId: document.id, accessHash: document.accessHash,
                fileReference: document.fileReference, sizeSpec: type)
        }
        self.init(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: document.id),
            resource: .cloudDocument(
                datacenterId: document.dcId, fileId: document.id, accessHash: document.accessHash,
                fileReference: document.fileReference, size: document.size),
            previewRepresentations: thumbnails, immediateThumbnailData: stripped, mimeType: document.mimeType,
            size: document.size, attributes: document.attributes.map(TelegramMediaFileAttribute.init))
    }
}

extension TelegramMediaActionType {
    /// A service message's action from the API (Telegram-iOS `telegramMediaActionFromApiAction`).
    public init(_ action: Api.MessageAction) {
        switch action {
        case .messageActionChatCreate(let create): self = .groupCreated(title: create.title)
        // Telegram-iOS shows a channel's or supergroup's creation as a group's ("… created the group/channel").
        case .messageActionChannelCreate(let create): self = .groupCreated(title: create.title)
        case .messageActionChatAddUser(let add): self = .addedMembers(peerIds: add.users.map(PeerId.user))
        case .messageActionChatDeleteUser(let delete): self = .removedMembers(peerIds: [.user(delete.userId)])
        case .messageActionChatJoinedByLink(let join): self = .joinedByLink(inviter: .user(join.inviterId))
        case .messageActionChatJoinedByRequest: self = .joinedByRequest
        case .messageActionChatEditTitle(let edit): self = .titleUpdated(title: edit.title)
        case .messageActionChatEditPhoto: self = .photoUpdated(image: true)
        case .messageActionChatDeletePhoto: self = .photoUpdated(image: false)
        case .messageActionPinMessage: self = .pinnedMessageUpdated
        case .messageActionHistoryClear: self = .historyCleared
        case .messageActionScreenshotTaken: self = .historyScreenshot
        case .messageActionSetMessagesTTL(let ttl): self = .messageAutoremoveTimeoutUpdated(period: ttl.period)
        case .messageActionContactSignUp: self = .contactSignUp
        case .messageActionCustomAction(let custom): self = .customText(text: custom.message)
        default: self = .unsupported(constructor: constructorName(of: action))
        }
    }
}

/// The TL constructor's name of a generated value (`messageActionGameScore`), for values kept as unsupported.
func constructorName(of value: Any) -> String {
    let text = String(describing: value)
    return text.firstIndex(of: "(").map { String(text[..<$0]) } ?? text
}
