import Buffers
import PostboxCoding

/// A message as stored in MessageHistoryTable: a hand-rolled binary record, not a PostboxCoding object (Telegram-iOS
/// `MessageHistoryTable.swift`): type byte, stable id and version, optional fields behind a flag byte, flags, tags, text, attributes and embedded media as PostboxCoding object arrays, referenced media ids.
struct MessageRecord {
    var stableId: UInt32
    var stableVersion: UInt32
    var id: MessageId
    var timestamp: Int32
    var globallyUniqueId: Int64?
    var groupingKey: Int64?
    var threadId: Int64?
    var flags: MessageFlags
    var tags: MessageTags
    var authorId: PeerId?
    var text: String
    var attributes: [MessageAttribute]
    var embeddedMedia: [Media]
    var referencedMedia: [MediaId]

    var index: MessageIndex { MessageIndex(id: id, timestamp: timestamp) }

    private enum DataFlag: UInt8 {
        case globallyUniqueId = 1
        case groupingKey = 2
        case threadId = 4
        case author = 8
    }

    func encode() -> [UInt8] {
        var buffer = WriteBuffer(capacity: 64 + text.utf8.count)
        buffer.write(0)
        buffer.writeLittleEndian(stableId)
        buffer.writeLittleEndian(stableVersion)
        var dataFlags: UInt8 = 0
        if globallyUniqueId != nil { dataFlags |= DataFlag.globallyUniqueId.rawValue }
        if groupingKey != nil { dataFlags |= DataFlag.groupingKey.rawValue }
        if threadId != nil { dataFlags |= DataFlag.threadId.rawValue }
        if authorId != nil { dataFlags |= DataFlag.author.rawValue }
        buffer.write(dataFlags)
        if let globallyUniqueId { buffer.writeLittleEndian(globallyUniqueId) }
        if let groupingKey { buffer.writeLittleEndian(groupingKey) }
        if let threadId { buffer.writeLittleEndian(threadId) }
        if let authorId { buffer.writeLittleEndian(authorId.toInt64()) }
        buffer.writeLittleEndian(flags.rawValue)
        buffer.writeLittleEndian(tags.rawValue)
        let utf8 = Array(text.utf8)
        buffer.writeLittleEndian(Int32(utf8.count))
        buffer.write(contentsOf: utf8)
        for objects in [attributes as [PostboxCoding], embeddedMedia as [PostboxCoding]] {
            if objects.isEmpty {
                buffer.writeLittleEndian(Int32(0))
            } else {
                let encoder = PostboxEncoder()
                encoder.encodeObjectArray(objects, forKey: "_")
                let data = encoder.makeData()
                buffer.writeLittleEndian(Int32(data.count))
                buffer.write(contentsOf: data)
            }
        }
        buffer.writeLittleEndian(Int32(referencedMedia.count))
        for mediaId in referencedMedia {
            buffer.writeLittleEndian(mediaId.namespace)
            buffer.writeLittleEndian(mediaId.id)
        }
        return buffer.bytes
    }

    /// Decodes a record; damaged bytes throw, never trap.
    static func decode(_ bytes: [UInt8], id: MessageId, timestamp: Int32) throws -> MessageRecord {
        var reader = ReadBuffer(bytes)
        guard try reader.readUInt8() == 0 else { throw PostboxDecodingError.unknownValueType(offset: 0, tag: bytes[0]) }
        let stableId = try reader.readLittleEndian(UInt32.self)
        let stableVersion = try reader.readLittleEndian(UInt32.self)
        let dataFlags = try reader.readUInt8()
        func optional(_ flag: DataFlag) throws -> Int64? {
            dataFlags & flag.rawValue != 0 ? try reader.readLittleEndian(Int64.self) : nil
        }
        let globallyUniqueId = try optional(.globallyUniqueId)
        let groupingKey = try optional(.groupingKey)
        let threadId = try optional(.threadId)
        let authorId = try optional(.author).map(PeerId.init)
        let flags = MessageFlags(rawValue: try reader.readLittleEndian(UInt32.self))
        let tags = MessageTags(rawValue: try reader.readLittleEndian(UInt32.self))
        let textLength = Int(try reader.readLittleEndian(Int32.self))
        let text = String(
            decoding: try reader.readBytes(claimedLength: textLength, limit: reader.remaining), as: UTF8.self)
        var arrays: [[PostboxCoding]] = []
        for _ in 0..<2 {
            let length = Int(try reader.readLittleEndian(Int32.self))
            let data = try reader.readBytes(claimedLength: length, limit: reader.remaining)
            arrays.append(data.isEmpty ? [] : try PostboxDecoder(bytes: data).decodeObjectArrayForKey("_"))
        }
        let referencedCount = Int(try reader.readLittleEndian(Int32.self))
        guard referencedCount >= 0, referencedCount * 12 <= reader.remaining else {
            throw PostboxDecodingError.invalidLength(offset: reader.offset, claimed: Int64(referencedCount))
        }
        var referenced: [MediaId] = []
        for _ in 0..<referencedCount {
            referenced.append(
                MediaId(namespace: try reader.readLittleEndian(Int32.self), id: try reader.readLittleEndian(Int64.self))
            )
        }
        guard let attributes = arrays[0] as? [MessageAttribute], let media = arrays[1] as? [Media] else {
            throw PostboxDecodingError.typeMismatch(key: "attributes/media", expected: "MessageAttribute/Media")
        }
        return MessageRecord(
            stableId: stableId, stableVersion: stableVersion, id: id, timestamp: timestamp,
            globallyUniqueId: globallyUniqueId, groupingKey: groupingKey, threadId: threadId, flags: flags, tags: tags,
            authorId: authorId, text: text, attributes: attributes, embeddedMedia: media, referencedMedia: referenced)
    }
}
