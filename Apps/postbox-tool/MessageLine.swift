import Postbox
import PostboxTesting

/// One message as a JSON line for import-jsonl and export-jsonl.
struct MessageLine: Codable {
    struct EntityLine: Codable {
        var type: String
        var offset: Int32
        var length: Int32
    }

    struct MediaLine: Codable {
        var kind: String
        var name: String?
        var size: Int64?
        var id: Int64?
    }

    /// The chat: a user id (namespace 0) unless `peerNamespace` says otherwise.
    var peer: Int64
    var peerNamespace: Int32?
    var namespace: Int32?
    var id: Int32
    var timestamp: Int32
    var author: Int64?
    var text: String
    var incoming: Bool?
    var entities: [EntityLine]?
    var media: [MediaLine]?
    var groupingKey: Int64?

    var peerId: PeerId {
        PeerId(namespace: .init(rawValue: peerNamespace ?? 0), id: .init(rawValue: peer))
    }

    var authorId: PeerId? {
        author.map { PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: $0)) }
    }

    static func tags(forKind kind: String) -> MessageTags {
        switch kind {
        case "photo": return [.photoOrVideo, .photo]
        case "video": return [.photoOrVideo, .video]
        case "file", "document": return [.file]
        case "voice": return [.voiceOrInstantVideo, .voice]
        case "music", "audio": return [.music]
        case "gif": return [.gif]
        default: return []
        }
    }

    func storeMessage() -> StoreMessage {
        let media = (media ?? []).map {
            TestMedia(
                id: $0.id.map { MediaId(namespace: 0, id: $0) }, kind: $0.kind, name: $0.name ?? "", size: $0.size ?? 0)
        }
        var attributes: [MessageAttribute] = []
        if let entities, !entities.isEmpty {
            attributes.append(
                TestTextEntitiesAttribute(
                    entities: entities.map { .init(type: $0.type, offset: $0.offset, length: $0.length) }))
        }
        let tags = media.reduce(into: MessageTags()) { $0.formUnion(Self.tags(forKind: $1.kind)) }
        return StoreMessage(
            id: .id(MessageId(peerId: peerId, namespace: namespace ?? 0, id: id)), groupingKey: groupingKey,
            timestamp: timestamp, flags: incoming == true ? [.incoming] : [], tags: tags, authorId: authorId,
            text: text, attributes: attributes, media: media)
    }

    init(_ message: Message) {
        peer = message.id.peerId.id.rawValue
        peerNamespace = message.id.peerId.namespace.rawValue == 0 ? nil : message.id.peerId.namespace.rawValue
        namespace = message.id.namespace == 0 ? nil : message.id.namespace
        id = message.id.id
        timestamp = message.timestamp
        author = message.authorId?.id.rawValue
        text = message.text
        incoming = message.flags.contains(.incoming) ? true : nil
        let entityList = message.attributes.compactMap { $0 as? TestTextEntitiesAttribute }.flatMap(\.entities)
        entities =
            entityList.isEmpty
            ? nil : entityList.map { EntityLine(type: $0.type, offset: $0.offset, length: $0.length) }
        let mediaList = message.media.compactMap { $0 as? TestMedia }
        media =
            mediaList.isEmpty
            ? nil : mediaList.map { MediaLine(kind: $0.kind, name: $0.name, size: $0.size, id: $0.id?.id) }
        groupingKey = message.groupingKey
    }
}
