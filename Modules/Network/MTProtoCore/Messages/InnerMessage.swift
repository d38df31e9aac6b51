public import TLRuntime

/// One message inside an encrypted payload or a container (MTProto §Message): its id, its sequence number and its
/// body, a boxed TL object.
public struct InnerMessage: Sendable, Equatable {
    public let messageId: Int64
    public let seqNo: Int32
    public let body: [UInt8]

    public init(messageId: Int64, seqNo: Int32, body: [UInt8]) {
        self.messageId = messageId
        self.seqNo = seqNo
        self.body = body
    }

    /// Whether the message is content-related (odd seq_no) and so must be acknowledged.
    public var isContentRelated: Bool { seqNo & 1 == 1 }

    /// The constructor id at the front of the body.
    public var constructorId: UInt32? { ServiceCodec.constructorId(of: body) }
}

/// The MTProto service wrappers the schema cannot describe as ordinary types (mtproto.tl marks them "parsed
/// manually"): `msg_container`, `rpc_result`, and the `gzip_packed` wrapper (MTProto §Service Messages).
public enum ServiceCodec {
    public static let containerId: UInt32 = 0x73f1_f8dc
    public static let rpcResultId: UInt32 = 0xf35c_6d01
    public static let gzipPackedId: UInt32 = 0x3072_cfa1

    /// The little-endian constructor id at the front of a body.
    public static func constructorId(of body: [UInt8]) -> UInt32? { constructorId(in: body, at: 0, end: body.count) }

    /// The little-endian constructor id at `offset` of `bytes`, read in place; nil when fewer than 4 bytes lie
    /// before `end`.
    public static func constructorId(in bytes: [UInt8], at offset: Int, end: Int) -> UInt32? {
        guard offset >= 0, end <= bytes.count, end - offset >= 4 else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// `msg_container#73f1f8dc messages:vector<%Message>`: a bare vector of `msg_id seqno bytes body`.
    public static func container(_ messages: [InnerMessage]) -> [UInt8] {
        var writer = TLWriter(capacity: 8 + messages.reduce(0) { $0 + 16 + $1.body.count })
        writer.writeUInt32(containerId)
        writer.writeInt32(Int32(messages.count))
        for message in messages {
            writer.writeInt64(message.messageId)
            writer.writeInt32(message.seqNo)
            writer.writeInt32(Int32(message.body.count))
            writer.writeRaw(message.body)
        }
        return writer.bytes
    }

    /// Parses a container body (with its constructor id) into its messages, at most
    /// `MessageLimits.maximumContainerMessages`. What the children may hold is `InboundWalk`'s to check.
    public static func parseContainer(_ body: [UInt8]) throws(TLDecodingError) -> [InnerMessage] {
        let entries = try containerLayout(body)
        return entries.map { $0.message(in: body) }
    }

    /// One message of a container, located in the container's body instead of copied out of it.
    struct ContainerEntry {
        let messageId: Int64
        let seqNo: Int32
        /// Where the message's body lies in the container's body.
        let body: Range<Int>

        /// The message itself, its body copied out of `container` (the container's body).
        func message(in container: [UInt8]) -> InnerMessage {
            InnerMessage(messageId: messageId, seqNo: seqNo, body: Array(container[body]))
        }
    }

    /// `parseContainer` without copying: where each message's body lies in `body`, with the same checks (a count
    /// the data can hold, at most `MessageLimits.maximumContainerMessages`; each length at least 4, a multiple of
    /// 4, within what remains).
    static func containerLayout(_ body: [UInt8]) throws(TLDecodingError) -> [ContainerEntry] {
        var reader = TLReader(body)
        guard try reader.readUInt32() == containerId else {
            throw reader.unknownConstructor(constructorId(of: body) ?? 0)
        }
        let count = Int(try reader.readInt32())
        // Each message takes at least 16 bytes: refuse counts the data cannot hold before allocating.
        guard count >= 0, count <= MessageLimits.maximumContainerMessages, count * 16 <= reader.remaining else {
            throw .invalidLength(offset: 4, claimed: count)
        }
        var entries: [ContainerEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let messageId = try reader.readInt64()
            let seqNo = try reader.readInt32()
            let length = Int(try reader.readInt32())
            guard length >= 4, length % 4 == 0, length <= reader.remaining else {
                throw .invalidLength(offset: reader.offset, claimed: length)
            }
            entries.append(
                ContainerEntry(messageId: messageId, seqNo: seqNo, body: reader.offset..<(reader.offset + length)))
            reader.offset += length
        }
        return entries
    }

    /// `rpc_result#f35c6d01 req_msg_id:long result:Object`.
    public static func rpcResult(requestId: Int64, result: [UInt8]) -> [UInt8] {
        var writer = TLWriter(capacity: 12 + result.count)
        writer.writeUInt32(rpcResultId)
        writer.writeInt64(requestId)
        writer.writeRaw(result)
        return writer.bytes
    }

    /// Splits an rpc_result into the request id and the result's bytes (unpacking `gzip_packed`).
    public static func parseRpcResult(
        _ body: [UInt8], limits: TLReader.Limits = .init()
    ) throws(TLDecodingError) -> (requestId: Int64, result: [UInt8]) {
        var reader = TLReader(body, limits: limits)
        guard try reader.readUInt32() == rpcResultId else {
            throw reader.unknownConstructor(constructorId(of: body) ?? 0)
        }
        let requestId = try reader.readInt64()
        var result = try reader.readRaw(reader.remaining)
        if constructorId(of: result) == gzipPackedId { result = try unpack(result, limits: limits) }
        return (requestId, result)
    }

    /// The inflated bytes of a `gzip_packed` body (one boxed object), within `limits.maxUnpackedSize`.
    public static func unpack(_ body: [UInt8], limits: TLReader.Limits = .init()) throws(TLDecodingError) -> [UInt8] {
        var reader = TLReader(body, limits: limits)
        // readObject inflates gzip_packed and hands over the inner object's id and reader.
        return try reader.readObject { (id: UInt32, inner: inout TLReader) throws(TLDecodingError) -> [UInt8] in
            var bytes = [UInt8(id & 0xff), UInt8(id >> 8 & 0xff), UInt8(id >> 16 & 0xff), UInt8(id >> 24)]
            bytes += try inner.readRaw(inner.remaining)
            return bytes
        }
    }
}

extension TLReader {
    /// The next `count` bytes as they are.
    mutating func readRaw(_ count: Int) throws(TLDecodingError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .invalidLength(offset: offset, claimed: count) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
