import TelegramApi

/// The limit row of the TL `message` parse: a decoder written by hand for exactly the benchmark's message shape
/// (`message#7600b9d3` with out, from_id, reply_to, entities and edit_date; `peerUser` peers; a reply header with
/// only `reply_to_msg_id`; bold and text-URL entities), reading the 216 bytes into the same `Api.Message` the
/// generated parser returns. It allocates nothing beyond that result (its objects, strings and array) and keeps the
/// safety of the generated code: every read is bounds-checked, and any other shape gives nil instead of a trap.
enum HandWrittenMessageDecoder {
    static func decode(_ bytes: [UInt8]) -> Api.Message? {
        bytes.withUnsafeBytes { raw in
            var cursor = Cursor(raw)
            return decodeMessage(&cursor)
        }
    }

    /// A bounds-checked position in the buffer.
    struct Cursor {
        let base: UnsafeRawPointer?
        let count: Int
        var offset = 0

        init(_ raw: UnsafeRawBufferPointer) {
            base = raw.baseAddress
            count = raw.count
        }

        @inline(__always)
        mutating func int32() -> Int32? {
            guard let base, count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
        }

        @inline(__always)
        mutating func uint32() -> UInt32? { int32().map { UInt32(bitPattern: $0) } }

        @inline(__always)
        mutating func int64() -> Int64? {
            guard let base, count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return Int64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        }

        /// A TL `string` (1- or 4-byte length, padded to 4), ill-formed UTF-8 repaired as the generated code does.
        @inline(__always)
        mutating func string() -> String? {
            guard let base, offset < count else { return nil }
            var length = Int(base.load(fromByteOffset: offset, as: UInt8.self))
            var header = 1
            if length >= 254 {
                guard count - offset >= 4 else { return nil }
                length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) >> 8)
                header = 4
            }
            let padded = (header + length + 3) & ~3
            guard count - offset >= padded else { return nil }
            let start = base.advanced(by: offset + header).assumingMemoryBound(to: UInt8.self)
            offset += padded
            return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
        }
    }

    static func decodeMessage(_ c: inout Cursor) -> Api.Message? {
        let expectedFlags: UInt32 = 1 << 1 | 1 << 3 | 1 << 7 | 1 << 8 | 1 << 15
        guard c.uint32() == 0x7600_b9d3, c.uint32() == expectedFlags, c.uint32() == 0,
            let id = c.int32(), let fromId = peerUser(&c), let peerId = peerUser(&c),
            c.uint32() == 0x1b97_dd66, c.uint32() == 1 << 4, let replyToMsgId = c.int32(),
            let date = c.int32(), let text = c.string(),
            c.uint32() == 0x1cb5_c415, let count = c.int32(), count >= 0, count <= (c.count - c.offset) / 4
        else { return nil }
        var entities: [Api.MessageEntity] = []
        entities.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let entity = entity(&c) else { return nil }
            entities.append(entity)
        }
        guard let editDate = c.int32(), c.offset == c.count else { return nil }
        return .message(
            .init(
                out: true, id: id, fromId: fromId, peerId: peerId,
                replyTo: .messageReplyHeader(.init(replyToMsgId: replyToMsgId)), date: date, message: text,
                entities: entities, editDate: editDate))
    }

    @inline(__always)
    static func peerUser(_ c: inout Cursor) -> Api.Peer? {
        guard c.uint32() == 0x5951_1722, let userId = c.int64() else { return nil }
        return .peerUser(.init(userId: userId))
    }

    @inline(__always)
    static func entity(_ c: inout Cursor) -> Api.MessageEntity? {
        guard let id = c.uint32(), let offset = c.int32(), let length = c.int32() else { return nil }
        switch id {
        case 0xbd61_0bc9: return .messageEntityBold(.init(offset: offset, length: length))
        case 0x76a6_d327:
            guard let url = c.string() else { return nil }
            return .messageEntityTextUrl(.init(offset: offset, length: length, url: url))
        default: return nil
        }
    }
}
