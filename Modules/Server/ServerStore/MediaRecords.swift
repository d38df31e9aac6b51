/// A stored document: its bytes in the `FileVault`, its description as Telegram shows it.
public struct DocumentRecord: Sendable, Equatable {
    public var id: Int64
    public var accessHash: Int64
    /// The account that uploaded it.
    public var owner: Int64
    /// The DC that stores and serves it.
    public var dc: Int32
    public var date: Int32
    public var mime: String
    public var size: Int64
    public var sha256: String
    /// Serialized `Vector<DocumentAttribute>`.
    public var attributes: [UInt8]?
    /// Serialized `Vector<PhotoSize>`.
    public var thumbs: [UInt8]?

    public init(
        id: Int64, accessHash: Int64, owner: Int64, dc: Int32, date: Int32, mime: String, size: Int64, sha256: String,
        attributes: [UInt8]? = nil, thumbs: [UInt8]? = nil
    ) {
        self.id = id
        self.accessHash = accessHash
        self.owner = owner
        self.dc = dc
        self.date = date
        self.mime = mime
        self.size = size
        self.sha256 = sha256
        self.attributes = attributes
        self.thumbs = thumbs
    }
}

/// A stored photo: its sizes (serialized `Vector<PhotoSize>`) and where each size's bytes are.
public struct PhotoRecord: Sendable, Equatable {
    public var id: Int64
    public var accessHash: Int64
    public var owner: Int64
    public var dc: Int32
    public var date: Int32
    public var sizes: [UInt8]
    /// Size type ("s", "m", …) → the SHA-256 of its JPEG bytes and their length.
    public var files: [String: (sha256: String, size: Int64)]

    public init(
        id: Int64, accessHash: Int64, owner: Int64, dc: Int32, date: Int32, sizes: [UInt8],
        files: [String: (sha256: String, size: Int64)]
    ) {
        self.id = id
        self.accessHash = accessHash
        self.owner = owner
        self.dc = dc
        self.date = date
        self.sizes = sizes
        self.files = files
    }

    public static func == (lhs: PhotoRecord, rhs: PhotoRecord) -> Bool {
        lhs.id == rhs.id && lhs.accessHash == rhs.accessHash && lhs.owner == rhs.owner && lhs.dc == rhs.dc
            && lhs.date == rhs.date
            && lhs.sizes == rhs.sizes
            && lhs.files.mapValues { "\($0.sha256):\($0.size)" } == rhs.files.mapValues { "\($0.sha256):\($0.size)" }
    }
}
