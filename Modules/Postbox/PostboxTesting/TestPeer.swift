public import Postbox
public import PostboxCoding

/// A plain peer (id and name) for tests, tools and benchmarks, until the core's peer types exist.
public struct TestPeer: Peer, Equatable {
    public let id: PeerId
    public let name: String

    public init(id: PeerId, name: String) {
        self.id = id
        self.name = name
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        id = PeerId(try decoder.decodeInt64(forKey: "i"))
        name = try decoder.decodeString(forKey: "n")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(id.toInt64(), forKey: "i")
        encoder.encodeString(name, forKey: "n")
    }

    public var indexName: String? { name }

    public func isEqual(_ other: Peer) -> Bool { (other as? TestPeer) == self }
}

/// A media item described by a kind ("photo", "file", …), a name and a size, shared by id when it has one.
public struct TestMedia: Media, Equatable {
    public let mediaId: MediaId?
    public let kind: String
    public let name: String
    public let size: Int64

    public init(id: MediaId?, kind: String, name: String, size: Int64) {
        self.mediaId = id
        self.kind = kind
        self.name = name
        self.size = size
    }

    public var id: MediaId? { mediaId }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        if let namespace = decoder.decodeOptionalInt32ForKey("ns"), let id = decoder.decodeOptionalInt64ForKey("id") {
            mediaId = MediaId(namespace: namespace, id: id)
        } else {
            mediaId = nil
        }
        kind = try decoder.decodeString(forKey: "k")
        name = decoder.decodeStringForKey("n", orElse: "")
        size = decoder.decodeInt64ForKey("s", orElse: 0)
    }

    public func encode(_ encoder: PostboxEncoder) {
        if let mediaId {
            encoder.encodeInt32(mediaId.namespace, forKey: "ns")
            encoder.encodeInt64(mediaId.id, forKey: "id")
        }
        encoder.encodeString(kind, forKey: "k")
        encoder.encodeString(name, forKey: "n")
        encoder.encodeInt64(size, forKey: "s")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TestMedia) == self }
}

/// Text entities (bold, links, …) as (type, offset, length) triples.
public struct TestTextEntitiesAttribute: MessageAttribute, Equatable {
    public struct Entity: Equatable, Sendable {
        public let type: String
        public let offset: Int32
        public let length: Int32

        public init(type: String, offset: Int32, length: Int32) {
            self.type = type
            self.offset = offset
            self.length = length
        }
    }

    public let entities: [Entity]

    public init(entities: [Entity]) {
        self.entities = entities
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let types = decoder.decodeStringArrayForKey("t")
        let offsets = decoder.decodeInt32ArrayForKey("o")
        let lengths = decoder.decodeInt32ArrayForKey("l")
        guard types.count == offsets.count, offsets.count == lengths.count else {
            throw .typeMismatch(key: "t", expected: "equal-length entity arrays")
        }
        entities = (0..<types.count).map { Entity(type: types[$0], offset: offsets[$0], length: lengths[$0]) }
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeStringArray(entities.map(\.type), forKey: "t")
        encoder.encodeInt32Array(entities.map(\.offset), forKey: "o")
        encoder.encodeInt32Array(entities.map(\.length), forKey: "l")
    }
}

/// A preferences entry holding one string.
public struct TestPreferencesEntry: PreferencesEntry, OrderedItemListEntryContents, PeerPresence, Equatable {
    public let value: String

    public init(value: String) {
        self.value = value
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        value = try decoder.decodeString(forKey: "v")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeString(value, forKey: "v")
    }

    public func isEqual(to other: PreferencesEntry) -> Bool { (other as? TestPreferencesEntry) == self }
    public func isEqual(to other: PeerPresence) -> Bool { (other as? TestPreferencesEntry) == self }
}

/// Registers the test types with the PostboxCoding registry; call before reading stored objects.
public func registerPostboxTestTypes() {
    declareEncodable(TestPeer.self)
    declareEncodable(TestMedia.self)
    declareEncodable(TestTextEntitiesAttribute.self)
    declareEncodable(TestPreferencesEntry.self)
}
