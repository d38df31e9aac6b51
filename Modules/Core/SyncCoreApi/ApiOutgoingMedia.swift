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
            return .documentAttributeSticker(.init(mask: isMask, alt: text, stickerset: pack?.apiInputStickerSet ?? .inputStickerSetEmpty))
        case .video(let duration, let size, let round, let streaming, let noSound):
            return .documentAttributeVideo(
                .init(roundMessage: round, supportsStreaming: streaming, nosound: noSound, duration: duration, w: size.width, h: size.height))
        case .audio(let isVoice, let duration, let title, let performer, let waveform):
            return .documentAttributeAudio(.init(voice: isVoice, duration: duration, title: title, performer: performer, waveform: waveform))
        case .customEmoji(let alt, let pack):
            return .documentAttributeCustomEmoji(.init(alt: alt, stickerset: pack?.apiInputStickerSet ?? .inputStickerSetEmpty))
        case .hasLinkedStickers:
            return nil
        }
    }
}
