public import Postbox
public import PostboxCoding

/// A sticker's set, as the server names it (`InputStickerSet`).
public enum StickerPackReference: Hashable, Sendable, Codable {
    case id(id: Int64, accessHash: Int64)
    case name(String)
    case animatedEmoji
    case dice(String)
    case other(String)
}

/// What a file is, beyond its bytes (Telegram-iOS `TelegramMediaFileAttribute`).
public enum TelegramMediaFileAttribute: Hashable, Sendable, Codable {
    case fileName(String)
    case imageSize(PixelDimensions)
    case sticker(displayText: String, packReference: StickerPackReference?, isMask: Bool)
    case animated
    case video(duration: Double, size: PixelDimensions, isRoundMessage: Bool, supportsStreaming: Bool, noSound: Bool)
    /// Music or a voice note; a voice note's waveform is Telegram's 63-byte, 5-bit form (`AudioWaveform`).
    case audio(isVoice: Bool, duration: Int32, title: String?, performer: String?, waveform: [UInt8]?)
    case hasLinkedStickers
    case customEmoji(alt: String, packReference: StickerPackReference?)
}

/// A document: its file, type, thumbnails and attributes (Telegram-iOS `TelegramMediaFile`).
public struct TelegramMediaFile: Media, Hashable {
    public var fileId: MediaId
    public var resource: TelegramMediaResource
    public var previewRepresentations: [TelegramMediaImageRepresentation]
    public var immediateThumbnailData: [UInt8]?
    public var mimeType: String
    public var size: Int64?
    public var attributes: [TelegramMediaFileAttribute]

    public init(
        fileId: MediaId, resource: TelegramMediaResource,
        previewRepresentations: [TelegramMediaImageRepresentation] = [],
        immediateThumbnailData: [UInt8]? = nil, mimeType: String, size: Int64?, attributes: [TelegramMediaFileAttribute]
    ) {
        self.fileId = fileId
        self.resource = resource
        self.previewRepresentations = previewRepresentations
        self.immediateThumbnailData = immediateThumbnailData
        self.mimeType = mimeType
        self.size = size
        self.attributes = attributes
    }

    public var id: MediaId? { fileId }

    /// The file name attribute's value.
    public var fileName: String? {
        for case .fileName(let name) in attributes { return name }
        return nil
    }

    /// Whether the file is a sticker.
    public var isSticker: Bool { attributes.contains { if case .sticker = $0 { true } else { false } } }

    /// Whether the file is a video sticker: a sticker whose type is `video/webm` (Telegram-iOS
    /// `TelegramMediaFile.isVideoSticker`, submodules/TelegramCore/Sources/SyncCore/SyncCore_TelegramMediaFile.swift).
    /// Its video attribute (frame size, duration) does not make it a video.
    public var isVideoSticker: Bool { mimeType == "video/webm" && isSticker }

    /// Whether the file is an animated (`.tgs`) sticker (Telegram-iOS `TelegramMediaFile.isAnimatedSticker`).
    public var isAnimatedSticker: Bool { mimeType == "application/x-tgsticker" && isSticker }

    /// Whether the file is a voice note.
    public var isVoice: Bool {
        attributes.contains { if case .audio(let isVoice, _, _, _, _) = $0 { isVoice } else { false } }
    }

    /// Whether the file is music (audio that is not a voice note).
    public var isMusic: Bool {
        attributes.contains { if case .audio(let isVoice, _, _, _, _) = $0 { !isVoice } else { false } }
    }

    /// Whether the file is a video, and whether a round one.
    public var isVideo: Bool { attributes.contains { if case .video = $0 { true } else { false } } }
    public var isInstantVideo: Bool {
        attributes.contains { if case .video(_, _, let round, _, _) = $0 { round } else { false } }
    }

    /// Whether the file is an animation (a GIF sent as a silent video).
    public var isAnimated: Bool { attributes.contains(.animated) }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        fileId = MediaId(namespace: try decoder.decodeInt32(forKey: "i.n"), id: try decoder.decodeInt64(forKey: "i.i"))
        resource = try decoder.decodeCodable(TelegramMediaResource.self, forKey: "r")
        previewRepresentations =
            try decoder.decodeOptionalCodable([TelegramMediaImageRepresentation].self, forKey: "pr") ?? []
        immediateThumbnailData = decoder.decodeOptionalBytesForKey("itd")
        mimeType = try decoder.decodeString(forKey: "mt")
        size = decoder.decodeOptionalInt64ForKey("s")
        attributes = try decoder.decodeCodable([TelegramMediaFileAttribute].self, forKey: "a")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(fileId.namespace, forKey: "i.n")
        encoder.encodeInt64(fileId.id, forKey: "i.i")
        encoder.encodeCodable(resource, forKey: "r")
        if !previewRepresentations.isEmpty { encoder.encodeCodable(previewRepresentations, forKey: "pr") }
        if let immediateThumbnailData { encoder.encodeBytes(immediateThumbnailData, forKey: "itd") }
        encoder.encodeString(mimeType, forKey: "mt")
        if let size { encoder.encodeInt64(size, forKey: "s") }
        encoder.encodeCodable(attributes, forKey: "a")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaFile) == self }
}
