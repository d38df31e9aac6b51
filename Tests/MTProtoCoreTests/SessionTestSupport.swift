import CryptoUtils
import GZip
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// Builds and reads the packets the session state machines exchange, so tests can feed them hand-made bytes — ids,
/// seq_nos, salts and bodies of their choosing — and read what comes out.
enum Wire {
    static let key = AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })!
    static let schedule = SaltSchedule(secret: Array("test secret".utf8))
    static let now: Double = 1_800_000_000
    static let sessionId: Int64 = 0x1234_5678
    static var salt: Int64 { schedule.salt(authKeyId: key.id, time: now) }

    /// A msg_id at `time` with the given remainder mod 4 (0 client, 1 server response, 3 server-initiated).
    static func id(_ time: Double, _ remainder: Int64 = 0) -> Int64 {
        (Int64(time) << 32) + Int64((time - time.rounded(.down)) * 4_294_967_296) / 4 * 4 + remainder
    }

    /// A client → server packet, decrypted again as the server's shell does before routing it.
    static func fromClient(
        id: Int64, seq: Int32, body: [UInt8], salt: Int64? = nil, sessionId: Int64 = sessionId
    ) throws -> DecryptedMessage {
        let packet = EncryptedMessage.encrypt(
            authKey: key, direction: .clientToServer, salt: salt ?? Self.salt, sessionId: sessionId, messageId: id,
            seqNo: seq, body: body)
        return try EncryptedMessage.decrypt(packet, authKey: key, direction: .clientToServer)
    }

    /// A server → client packet.
    static func fromServer(id: Int64, seq: Int32, body: [UInt8], sessionId: Int64 = sessionId) -> [UInt8] {
        EncryptedMessage.encrypt(
            authKey: key, direction: .serverToClient, salt: salt, sessionId: sessionId, messageId: id, seqNo: seq,
            body: body)
    }

    /// The messages a server packet carries (a container's children, or the message itself).
    static func messages(in packet: [UInt8]) throws -> [InnerMessage] {
        let message = try EncryptedMessage.decrypt(packet, authKey: key, direction: .serverToClient)
        let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        guard top.constructorId == ServiceCodec.containerId else { return [top] }
        let children = try ServiceCodec.parseContainer(top.body)
        for child in children { #expect(child.messageId < top.messageId, "a child's msg_id is not below its container's") }
        #expect(top.seqNo & 1 == 0, "a container with an odd seq_no")
        return children
    }

    /// Every message of every packet, in order.
    static func messages(in packets: [[UInt8]]) throws -> [InnerMessage] {
        try packets.flatMap { try messages(in: $0) }
    }

    /// `gzip_packed#3072cfa1 packed_data:bytes` around `body`.
    static func packed(_ body: [UInt8]) -> [UInt8] {
        var writer = TLWriter()
        writer.writeUInt32(ServiceCodec.gzipPackedId)
        writer.writeBytes(GZip.compress(body))
        return writer.takeBytes()
    }

    /// The MTProto object a body holds, or nil.
    static func object(_ body: [UInt8]) -> (any TLObject)? {
        var reader = TLReader(body)
        return try? MTProto.parseObject(&reader)
    }

    /// The error code of a `bad_msg_notification` body, or nil.
    static func notificationCode(_ body: [UInt8]) -> Int32? {
        guard case .badMsgNotification(let value)? = object(body) as? MTProto.BadMsgNotification else { return nil }
        return value.errorCode
    }

    static func ping(_ id: Int64 = 1) -> [UInt8] { MTProto.functions.ping(pingId: id).serialized() }
}

extension Wire {
    /// The code and message of an `rpc_error` body.
    static func rpcError(_ body: [UInt8]) -> (code: Int32, message: String)? {
        guard case .rpcError(let value)? = object(body) as? MTProto.RpcError else { return nil }
        return (value.errorCode, value.errorMessage)
    }

    /// The salts of a `future_salts` body.
    static func futureSalts(_ body: [UInt8]) -> [Int64]? {
        guard case .futureSalts(let value)? = object(body) as? MTProto.FutureSalts else { return nil }
        return value.salts.map { salt in
            switch salt {
            case .futureSalt(let s): return s.salt
            }
        }
    }
}
