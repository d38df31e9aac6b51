public import Postbox
public import SecretApi
public import SecretChats
public import SyncCore

/// What an outgoing secret message carries besides its text (core.telegram.org `/api/end-to-end`, "Sending
/// encrypted files"; Telegram-iOS `TelegramCore/Sources/State/ManagedSecretChatOutgoingOperations.swift`). Everything
/// but `external` is encrypted with its own key and IV and uploaded; `external` names a file the server already has
/// (a sticker from a set), as Telegram sends stickers.
public enum SecretChatOutgoingMedia: Sendable {
    /// A file sent as a document (`decryptedMessageMediaDocument` with its name).
    case document(content: [UInt8], name: String, mimeType: String)
    /// A photo (`decryptedMessageMediaPhoto`): a JPEG, its size, and a thumbnail when one was made.
    case photo(jpeg: [UInt8], width: Int32, height: Int32, thumbnail: SecretChatThumbnail?)
    /// A voice note (`decryptedMessageMediaDocument`, `audio/ogg`, `documentAttributeAudio` with the voice flag,
    /// duration and Telegram's 5-bit waveform).
    case voice(ogg: [UInt8], duration: Int32, waveform: [UInt8])
    /// A file already on the server, e.g. a sticker (`decryptedMessageMediaExternalDocument`): nothing is uploaded.
    case external(TelegramMediaFile)
}

/// A photo's thumbnail inside the encrypted message: a small JPEG (the docs and Telegram keep it at most 90 px a
/// side).
public struct SecretChatThumbnail: Sendable, Equatable {
    public let jpeg: [UInt8]
    public let width: Int32
    public let height: Int32

    public init(jpeg: [UInt8], width: Int32, height: Int32) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}

/// The secret layer's media and document attributes, to and from the `Media` a message stores.
enum SecretChatMediaMapping {
    /// The file name a received file is kept under when its message names none.
    static func fileName(_ attributes: [SecretApi.DocumentAttribute]) -> String? {
        attributes.lazy.compactMap { attribute -> String? in
            if case .documentAttributeFilename(let value) = attribute { return value.fileName }
            return nil
        }.first
    }

    /// The key, IV, size, name and type of an encrypted file a received message describes (nil: it describes none).
    static func fileDetails(
        _ media: SecretApi.DecryptedMessageMedia?
    )
        -> (key: SecretChatFileKey, size: Int64, name: String, mimeType: String)?
    {
        switch media {
        case .decryptedMessageMediaDocument(let document)?:
            guard let key = SecretChatFileKey(key: document.key, iv: document.iv) else { return nil }
            return (key, document.size, fileName(document.attributes) ?? "file", document.mimeType)
        case .decryptedMessageMediaPhoto(let photo)?:
            guard let key = SecretChatFileKey(key: photo.key, iv: photo.iv) else { return nil }
            return (key, Int64(photo.size), "photo.jpg", "image/jpeg")
        default:
            return nil
        }
    }

    /// The media a received message stores: a photo or document whose bytes are the chat's encrypted file (fetched
    /// through `SecretChatManager.download`), or a file the server already has (a sticker).
    static func storedMedia(_ media: SecretApi.DecryptedMessageMedia?, chatId: Int32, randomId: Int64) -> [Media] {
        switch media {
        case .decryptedMessageMediaPhoto(let photo)?:
            var representations: [TelegramMediaImageRepresentation] = []
            if !photo.thumb.isEmpty {
                representations.append(
                    thumbnail(photo.thumb, width: photo.thumbW, height: photo.thumbH, randomId: randomId))
            }
            representations.append(
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: photo.w, height: photo.h),
                    resource: .secretChatFile(chatId: chatId, randomId: randomId, size: Int64(photo.size)), type: "y",
                    byteSize: Int64(photo.size)))
            return [
                TelegramMediaImage(
                    imageId: MediaId(namespace: Namespaces.Media.cloudSecretImage, id: randomId),
                    representations: representations, date: 0)
            ]
        case .decryptedMessageMediaDocument(let document)?:
            return [
                TelegramMediaFile(
                    fileId: MediaId(namespace: Namespaces.Media.cloudSecretFile, id: randomId),
                    resource: .secretChatFile(chatId: chatId, randomId: randomId, size: document.size),
                    previewRepresentations: document.thumb.isEmpty
                        ? []
                        : [
                            thumbnail(
                                document.thumb, width: document.thumbW, height: document.thumbH, randomId: randomId)
                        ],
                    mimeType: document.mimeType, size: document.size,
                    attributes: document.attributes.compactMap(fileAttribute))
            ]
        case .decryptedMessageMediaExternalDocument(let document)?:
            return [
                TelegramMediaFile(
                    fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: document.id),
                    resource: .cloudDocument(
                        datacenterId: document.dcId, fileId: document.id, accessHash: document.accessHash,
                        fileReference: [],
                        size: Int64(document.size)),
                    mimeType: document.mimeType, size: Int64(document.size),
                    attributes: document.attributes.compactMap(fileAttribute))
            ]
        default:
            return []
        }
    }

    static func thumbnail(
        _ jpeg: [UInt8], width: Int32, height: Int32, randomId: Int64
    ) -> TelegramMediaImageRepresentation {
        TelegramMediaImageRepresentation(
            dimensions: PixelDimensions(width: width, height: height),
            resource: .localFile(fileId: randomId, size: Int64(jpeg.count)), type: "s", byteSize: Int64(jpeg.count),
            cachedBytes: jpeg)
    }

    static func fileAttribute(_ attribute: SecretApi.DocumentAttribute) -> TelegramMediaFileAttribute? {
        switch attribute {
        case .documentAttributeImageSize(let value): return .imageSize(PixelDimensions(width: value.w, height: value.h))
        case .documentAttributeAnimated: return .animated
        case .documentAttributeSticker23: return .sticker(displayText: "", packReference: nil, isMask: false)
        case .documentAttributeSticker(let value):
            let pack: StickerPackReference?
            if case .inputStickerSetShortName(let name) = value.stickerset {
                pack = .name(name.shortName)
            } else {
                pack = nil
            }
            return .sticker(displayText: value.alt, packReference: pack, isMask: false)
        case .documentAttributeVideo23(let value):
            return .video(
                duration: Double(value.duration), size: PixelDimensions(width: value.w, height: value.h),
                isRoundMessage: false, supportsStreaming: false, noSound: false)
        case .documentAttributeVideo(let value):
            return .video(
                duration: Double(value.duration), size: PixelDimensions(width: value.w, height: value.h),
                isRoundMessage: value.roundMessage, supportsStreaming: false, noSound: false)
        case .documentAttributeAudio23(let value):
            return .audio(isVoice: false, duration: value.duration, title: nil, performer: nil, waveform: nil)
        case .documentAttributeAudio45(let value):
            return .audio(
                isVoice: false, duration: value.duration, title: value.title, performer: value.performer, waveform: nil)
        case .documentAttributeAudio(let value):
            return .audio(
                isVoice: value.voice, duration: value.duration, title: value.title, performer: value.performer,
                waveform: value.waveform)
        case .documentAttributeFilename(let value): return .fileName(value.fileName)
        }
    }

    static func secretAttribute(_ attribute: TelegramMediaFileAttribute) -> SecretApi.DocumentAttribute? {
        switch attribute {
        case .fileName(let name): return .documentAttributeFilename(.init(fileName: name))
        case .imageSize(let size): return .documentAttributeImageSize(.init(w: size.width, h: size.height))
        case .sticker(let text, let pack, _):
            let set: SecretApi.InputStickerSet
            if case .name(let name)? = pack {
                set = .inputStickerSetShortName(.init(shortName: name))
            } else {
                set = .inputStickerSetEmpty
            }
            return .documentAttributeSticker(.init(alt: text, stickerset: set))
        case .animated: return .documentAttributeAnimated
        case .video(let duration, let size, let round, _, _):
            return .documentAttributeVideo(
                .init(roundMessage: round, duration: Int32(duration.rounded()), w: size.width, h: size.height))
        case .audio(let isVoice, let duration, let title, let performer, let waveform):
            return .documentAttributeAudio(
                .init(voice: isVoice, duration: duration, title: title, performer: performer, waveform: waveform))
        case .hasLinkedStickers, .customEmoji: return nil
        }
    }
}
