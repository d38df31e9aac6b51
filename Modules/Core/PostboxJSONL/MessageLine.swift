public import Postbox
import SyncCore

/// One message as a JSON line: `{"peer","id","timestamp","text"[,"author","peerNamespace","namespace","incoming",
/// "entities","media","groupingKey"]}`. Absent optional fields mean their defaults (namespace 0, outgoing, none).
public struct MessageLine: Codable, Equatable, Sendable {
    /// A text entity: its type name (`bold`, `italic`, `pre`, `textUrl`, `mention`, … — Telegram's `MessageEntity`
    /// names), its UTF-16 range, and the URL of a `textUrl`, the language of a `pre`, the user of a `textMention`
    /// or the document of a `customEmoji`.
    public struct EntityLine: Codable, Equatable, Sendable {
        public var type: String
        public var offset: Int32
        public var length: Int32
        public var url: String?
        public var language: String?
        public var userId: Int64?

        public init(
            type: String, offset: Int32, length: Int32, url: String? = nil, language: String? = nil,
            userId: Int64? = nil
        ) {
            (self.type, self.offset, self.length) = (type, offset, length)
            (self.url, self.language, self.userId) = (url, language, userId)
        }
    }

    /// A media item: its kind ("photo", "video", "round", "file", "voice", "music", "gif", "sticker") and optional
    /// details (a photo keeps no name).
    public struct MediaLine: Codable, Equatable, Sendable {
        public var kind: String
        public var name: String?
        public var size: Int64?
        public var id: Int64?

        public init(kind: String, name: String? = nil, size: Int64? = nil, id: Int64? = nil) {
            (self.kind, self.name, self.size, self.id) = (kind, name, size, id)
        }
    }

    /// The chat: a user id (namespace 0) unless `peerNamespace` says otherwise.
    public var peer: Int64
    public var peerNamespace: Int32?
    public var namespace: Int32?
    public var id: Int32
    public var timestamp: Int32
    public var author: Int64?
    public var text: String
    public var incoming: Bool?
    public var entities: [EntityLine]?
    public var media: [MediaLine]?
    public var groupingKey: Int64?

    /// A line from its fields (the optional ones default to absent).
    public init(
        peer: Int64, peerNamespace: Int32? = nil, namespace: Int32? = nil, id: Int32, timestamp: Int32,
        author: Int64? = nil, text: String, incoming: Bool? = nil, entities: [EntityLine]? = nil,
        media: [MediaLine]? = nil, groupingKey: Int64? = nil
    ) {
        (self.peer, self.peerNamespace, self.namespace, self.id, self.timestamp) =
            (peer, peerNamespace, namespace, id, timestamp)
        (self.author, self.text, self.incoming, self.entities, self.media, self.groupingKey) =
            (author, text, incoming, entities, media, groupingKey)
    }

    /// The chat's peer id.
    public var peerId: PeerId {
        PeerId(namespace: .init(rawValue: peerNamespace ?? 0), id: .init(rawValue: peer))
    }

    /// The author's peer id (a user, namespace 0).
    public var authorId: PeerId? {
        author.map { PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: $0)) }
    }

    /// Why this line cannot be stored as it reads, or `nil` when it can: a peer that does not survive Postbox's
    /// 64-bit packing would come back as another peer.
    var storageProblem: String? {
        if let namespace = peerNamespace, !(0...1).contains(namespace) {
            return "\"peerNamespace\" is \(namespace); a chat is a user (0) or a basic group (1)"
        }
        for (index, item) in (media ?? []).enumerated() where !SyncCoreMapping.mediaKinds.contains(item.kind) {
            return
                "\"media[\(index)].kind\" is \"\(item.kind)\"; one of \(SyncCoreMapping.mediaKinds.joined(separator: ", "))"
        }
        for (index, entity) in (entities ?? []).enumerated() {
            if !SyncCoreMapping.entityTypes.contains(entity.type) {
                return
                    "\"entities[\(index)].type\" is \"\(entity.type)\"; one of \(SyncCoreMapping.entityTypes.joined(separator: ", "))"
            }
            if entity.offset < 0 || entity.length < 0 {
                return "\"entities[\(index)]\" has a negative offset or length"
            }
        }
        if PeerId(peerId.toInt64()) != peerId {
            return "\"peer\" \(peer) cannot be stored in namespace \(peerNamespace ?? 0) (ids are below 2^61)"
        }
        if let authorId, PeerId(authorId.toInt64()) != authorId {
            return "\"author\" \(author ?? 0) cannot be stored (ids are below 2^61)"
        }
        return nil
    }

    static func tags(forKind kind: String) -> MessageTags {
        switch kind {
        case "photo": return [.photoOrVideo, .photo]
        case "video": return [.photoOrVideo, .video]
        case "file", "document": return [.file]
        case "voice": return [.voiceOrInstantVideo, .voice]
        case "round": return [.voiceOrInstantVideo, .roundVideo]
        case "music", "audio": return [.music]
        case "gif": return [.gif]
        default: return []
        }
    }

    /// The message to store, with SyncCore's media and entity types.
    public func storeMessage() -> StoreMessage {
        let media = (media ?? []).map { SyncCoreMapping.media($0, message: id) }
        var attributes: [MessageAttribute] = []
        if let entities, !entities.isEmpty {
            attributes.append(TextEntitiesMessageAttribute(entities: entities.compactMap(SyncCoreMapping.entity)))
        }
        let tags = (self.media ?? []).reduce(into: MessageTags()) { $0.formUnion(Self.tags(forKind: $1.kind)) }
        return StoreMessage(
            id: .id(MessageId(peerId: peerId, namespace: namespace ?? 0, id: id)), groupingKey: groupingKey,
            timestamp: timestamp, flags: incoming == true ? [.incoming] : [], tags: tags, authorId: authorId,
            text: text, attributes: attributes, media: media)
    }

    /// The line for a stored message.
    public init(_ message: Message) {
        peer = message.id.peerId.id.rawValue
        peerNamespace = message.id.peerId.namespace.rawValue == 0 ? nil : message.id.peerId.namespace.rawValue
        namespace = message.id.namespace == 0 ? nil : message.id.namespace
        id = message.id.id
        timestamp = message.timestamp
        author = message.authorId?.id.rawValue
        text = message.text
        incoming = message.flags.contains(.incoming) ? true : nil
        let entityList = message.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.flatMap(\.entities)
        entities = entityList.isEmpty ? nil : entityList.map(SyncCoreMapping.line)
        let mediaList = message.media.compactMap(SyncCoreMapping.line)
        media = mediaList.isEmpty ? nil : mediaList
        groupingKey = message.groupingKey
    }
}
