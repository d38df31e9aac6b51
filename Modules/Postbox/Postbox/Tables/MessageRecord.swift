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

    /// The record's bytes, written into one array of the exact size (a record is encoded for every message
    /// written, and appending field by field showed in bulk-insert profiles).
    func encode() -> [UInt8] {
        // `map`, not `as [PostboxCoding]`: an array cast checks each element's conformance at run time.
        let attributeData = Self.objectArrayData(attributes.map { $0 as PostboxCoding })
        let mediaData = Self.objectArrayData(embeddedMedia.map { $0 as PostboxCoding })
        let author = authorId?.toInt64()
        var dataFlags: UInt8 = 0
        var optionalCount = 0
        for (isPresent, flag) in [
            (globallyUniqueId != nil, DataFlag.globallyUniqueId), (groupingKey != nil, .groupingKey),
            (threadId != nil, .threadId), (author != nil, .author),
        ] where isPresent {
            dataFlags |= flag.rawValue
            optionalCount += 1
        }
        var text = text
        return text.withUTF8 { utf8 in
            let size =
                1 + 4 + 4 + 1 + 8 * optionalCount + 4 + 4 + 4 + utf8.count + 4 + attributeData.count + 4
                + mediaData.count + 4 + 12 * referencedMedia.count
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                var writer = RecordWriter(base: UnsafeMutableRawPointer(buffer.baseAddress!))
                writer.write(UInt8(0))
                writer.write(stableId)
                writer.write(stableVersion)
                writer.write(dataFlags)
                for value in [globallyUniqueId, groupingKey, threadId, author] {
                    if let value { writer.write(value) }
                }
                writer.write(flags.rawValue)
                writer.write(tags.rawValue)
                writer.write(Int32(utf8.count))
                writer.write(UnsafeRawBufferPointer(utf8))
                writer.write(Int32(attributeData.count))
                attributeData.withUnsafeBytes { writer.write($0) }
                writer.write(Int32(mediaData.count))
                mediaData.withUnsafeBytes { writer.write($0) }
                writer.write(Int32(referencedMedia.count))
                for mediaId in referencedMedia {
                    writer.write(mediaId.namespace)
                    writer.write(mediaId.id)
                }
                precondition(writer.offset == size, "MessageRecord size miscounted")
                initialized = size
            }
        }
    }

    /// A PostboxCoding object array under key "_", or no bytes for an empty array.
    private static func objectArrayData(_ objects: [PostboxCoding]) -> [UInt8] {
        guard !objects.isEmpty else { return [] }
        let encoder = PostboxEncoder()
        encoder.encodeObjectArray(objects, forKey: "_")
        return encoder.makeData()
    }

    /// Little-endian stores into memory sized in advance.
    private struct RecordWriter {
        let base: UnsafeMutableRawPointer
        var offset = 0

        mutating func write<T: FixedWidthInteger>(_ value: T) {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        mutating func write(_ bytes: UnsafeRawBufferPointer) {
            if let source = bytes.baseAddress, bytes.count > 0 {
                (base + offset).copyMemory(from: source, byteCount: bytes.count)
            }
            offset += bytes.count
        }
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
