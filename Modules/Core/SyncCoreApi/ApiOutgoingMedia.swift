import Postbox
public import SyncCore
public import TelegramApi

extension StickerPackReference {
    /// The set as the API names it in a request.
    public var apiInputStickerSet: Api.InputStickerSet {
        switch self {
        case .id(let id, let accessHash): return .inputStickerSetID(.init(id: id, accessHash: accessHash))
        case .name(let name): return .inputStickerSetShortName(.init(shortName: name))
        case .animatedEmoji: return .inputStickerSetAnimatedEmoji
        case .dice(let emoticon): return .inputStickerSetDice(.init(emoticon: emoticon))
        case .other: return .inputStickerSetEmpty
        }
    }
}

extension TelegramMediaFileAttribute {
    /// The attribute as `messages.sendMedia` takes it (Telegram-iOS `inputDocumentAttributesFromFileAttributes`);
    /// `nil` for what a client does not send (`hasLinkedStickers` is the server's to say).
    public var apiDocumentAttribute: Api.DocumentAttribute? {
        switch self {
        case .fileName(let name):
            return .documentAttributeFilename(.init(fileName: name))
        case .imageSize(let size):
            return .documentAttributeImageSize(.init(w: size.width, h: size.height))
        case .animated:
            return .documentAttributeAnimated
        case .sticker(let text, let pack, let isMask):
            return .documentAttributeSticker(
                .init(mask: isMask, alt: text, stickerset: pack?.apiInputStickerSet ?? .inputStickerSetEmpty))
        case .video(let duration, let size, let round, let streaming, let noSound):
            return .documentAttributeVideo(
                .init(
                    roundMessage: round, supportsStreaming: streaming, nosound: noSound, duration: duration,
                    w: size.width, h: size.height))
        case .audio(let isVoice, let duration, let title, let performer, let waveform):
            return .documentAttributeAudio(
                .init(voice: isVoice, duration: duration, title: title, performer: performer, waveform: waveform))
        case .customEmoji(let alt, let pack):
            return .documentAttributeCustomEmoji(
                .init(alt: alt, stickerset: pack?.apiInputStickerSet ?? .inputStickerSetEmpty))
        case .hasLinkedStickers:
            return nil
        }
    }
}

extension TelegramMediaFile {
    /// The document as a request names it (`inputDocument`), for a file the server has; `nil` for a local file.
    public var apiInputDocument: Api.InputDocument? {
        guard case .cloudDocument(_, let fileId, let accessHash, let fileReference, _) = resource else { return nil }
        return .inputDocument(.init(id: fileId, accessHash: accessHash, fileReference: fileReference))
    }
}

extension TelegramMediaImage {
    /// The photo as a request names it (`inputPhoto`), for a photo the server has; `nil` for a local one.
    public var apiInputPhoto: Api.InputPhoto? {
        guard imageId.namespace == Namespaces.Media.cloudImage, let reference else { return nil }
        return .inputPhoto(
            .init(id: imageId.id, accessHash: reference.accessHash, fileReference: reference.fileReference))
    }
}

extension Api.MessageMedia {
    /// The stored media as `messages.sendMultiMedia` takes it back (`messages.uploadMedia`'s answer → `inputMediaPhoto`
    /// or `inputMediaDocument`); `nil` for media that is neither.
    public var sendableInputMedia: Api.InputMedia? {
        switch self {
        case .messageMediaPhoto(let media):
            guard case .photo(let photo)? = media.photo else { return nil }
            return .inputMediaPhoto(
                .init(
                    id: .inputPhoto(
                        .init(id: photo.id, accessHash: photo.accessHash, fileReference: photo.fileReference))))
        case .messageMediaDocument(let media):
            guard case .document(let document)? = media.document else { return nil }
            return .inputMediaDocument(
                .init(
                    id: .inputDocument(
                        .init(id: document.id, accessHash: document.accessHash, fileReference: document.fileReference)))
            )
        default:
            return nil
        }
    }
}
