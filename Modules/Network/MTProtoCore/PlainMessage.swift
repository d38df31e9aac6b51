import Buffers

/// An unencrypted message (MTProto §Unencrypted Message): `auth_key_id = 0`, `message_id`, `message_data_length`,
/// then the data. Only the auth-key exchange uses it.
public struct PlainMessage: Sendable, Equatable {
    public let messageId: Int64
    public let body: [UInt8]

    public init(messageId: Int64, body: [UInt8]) {
        self.messageId = messageId
        self.body = body
    }

    /// The wire bytes.
    public func serialized() -> [UInt8] {
        var writer = WriteBuffer(capacity: 20 + body.count)
        writer.writeLittleEndian(Int64(0))
        writer.writeLittleEndian(messageId)
        writer.writeLittleEndian(Int32(body.count))
        writer.write(contentsOf: body)
        return writer.bytes
    }

    /// Parses a packet whose first 8 bytes are zero; trailing bytes (padded transports) are ignored.
    public init(parsing packet: [UInt8]) throws(EnvelopeError) {
        var reader = ReadBuffer(packet)
        do {
            guard try reader.readLittleEndian(Int64.self) == 0 else { throw EnvelopeError.notPlain }
            messageId = try reader.readLittleEndian(Int64.self)
            let length = Int(try reader.readLittleEndian(Int32.self))
            guard length >= 0, length % 4 == 0 else { throw EnvelopeError.invalidLength(length) }
            body = try reader.readBytes(claimedLength: length, limit: reader.remaining)
        } catch let error as EnvelopeError {
            throw error
        } catch {
            throw .truncated
        }
    }

    /// Whether a packet is an unencrypted message (its auth_key_id is zero).
    public static func isPlain(_ packet: [UInt8]) -> Bool {
        packet.count >= 8 && packet[0..<8].allSatisfy { $0 == 0 }
    }
}

/// Why a packet was refused by the message layer. Each case is one of the receive-side checks of MTProto's
/// security guidelines; a refused packet is dropped (and, for a server, the connection may be closed).
public enum EnvelopeError: Error, Equatable, Sendable {
    case truncated
    case notPlain
    case invalidLength(Int)
    /// The packet names an auth key this end does not have.
    case unknownAuthKey(Int64)
    /// The recomputed msg_key differs: wrong key, or tampered data.
    case messageKeyMismatch
    case sessionMismatch
    /// Padding outside 12...1024 bytes (MTProto 2.0 §Padding).
    case invalidPadding(Int)
    case messageIdRejected(MessageIdValidator.Rejection)
    /// A container or acknowledgement with an odd seq_no, or a result with an even one (MTProto §Message Sequence
    /// Number: containers and acknowledgements are not content-related).
    case seqNoParity
}
