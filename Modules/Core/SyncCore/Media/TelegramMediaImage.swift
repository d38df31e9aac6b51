public import Postbox
public import PostboxCoding

/// A pixel size.
public struct PixelDimensions: Hashable, Sendable, Codable {
    public var width: Int32
    public var height: Int32

    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}

/// One stored size of an image (Telegram-iOS `TelegramMediaImageRepresentation`).
public struct TelegramMediaImageRepresentation: Hashable, Sendable, Codable {
    public var dimensions: PixelDimensions
    public var resource: TelegramMediaResource
    /// The size's type letter (`s`, `m`, `x`, `y`, `w`, …).
    public var type: String
    /// The byte size, when the server said.
    public var byteSize: Int64?
    /// Byte lengths at which a progressive JPEG's scans end (`photoSizeProgressive`).
    public var progressiveSizes: [Int32]
    /// The bytes themselves when the server sent them inline (`photoCachedSize`).
    public var cachedBytes: [UInt8]?
    /// A stripped thumbnail shown until this size loads (profile and chat photos carry one).
    public var immediateThumbnailData: [UInt8]?

    public init(
        dimensions: PixelDimensions, resource: TelegramMediaResource, type: String, byteSize: Int64? = nil,
        progressiveSizes: [Int32] = [], cachedBytes: [UInt8]? = nil, immediateThumbnailData: [UInt8]? = nil
    ) {
        self.dimensions = dimensions
        self.resource = resource
        self.type = type
        self.byteSize = byteSize
        self.progressiveSizes = progressiveSizes
        self.cachedBytes = cachedBytes
        self.immediateThumbnailData = immediateThumbnailData
    }
}

/// A photo: its sizes and the stripped thumbnail shown before any size loads (Telegram-iOS `TelegramMediaImage`).
public struct TelegramMediaImage: Media, Hashable {
    public var imageId: MediaId
    public var representations: [TelegramMediaImageRepresentation]
    /// `photoStrippedSize`'s bytes (a JPEG body without its header; see `PhotoSizes`).
    public var immediateThumbnailData: [UInt8]?
    public var reference: ImageReference?
    public var date: Int32
    public var hasStickers: Bool

    /// What to send back to the server for this photo (`inputPhoto`).
    public struct ImageReference: Hashable, Sendable, Codable {
        public var accessHash: Int64
        public var fileReference: [UInt8]

        public init(accessHash: Int64, fileReference: [UInt8]) {
            self.accessHash = accessHash
            self.fileReference = fileReference
        }
    }

    public init(
        imageId: MediaId, representations: [TelegramMediaImageRepresentation], immediateThumbnailData: [UInt8]? = nil,
        reference: ImageReference? = nil, date: Int32 = 0, hasStickers: Bool = false
    ) {
        self.imageId = imageId
        self.representations = representations
        self.immediateThumbnailData = immediateThumbnailData
        self.reference = reference
        self.date = date
        self.hasStickers = hasStickers
    }

    public var id: MediaId? { imageId }

    /// The largest stored size.
    public var largestRepresentation: TelegramMediaImageRepresentation? {
        representations.max {
            Int64($0.dimensions.width) * Int64($0.dimensions.height) < Int64($1.dimensions.width)
                * Int64($1.dimensions.height)
        }
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        imageId = MediaId(namespace: try decoder.decodeInt32(forKey: "i.n"), id: try decoder.decodeInt64(forKey: "i.i"))
        representations = try decoder.decodeCodable([TelegramMediaImageRepresentation].self, forKey: "r")
        immediateThumbnailData = decoder.decodeOptionalBytesForKey("itd")
        reference = try decoder.decodeOptionalCodable(ImageReference.self, forKey: "rf")
        date = decoder.decodeInt32ForKey("d", orElse: 0)
        hasStickers = decoder.decodeBoolForKey("st", orElse: false)
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(imageId.namespace, forKey: "i.n")
        encoder.encodeInt64(imageId.id, forKey: "i.i")
        encoder.encodeCodable(representations, forKey: "r")
        if let immediateThumbnailData { encoder.encodeBytes(immediateThumbnailData, forKey: "itd") }
        if let reference { encoder.encodeCodable(reference, forKey: "rf") }
        encoder.encodeInt32(date, forKey: "d")
        encoder.encodeBool(hasStickers, forKey: "st")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaImage) == self }
}
