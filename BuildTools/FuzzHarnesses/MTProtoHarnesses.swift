import CryptoUtils
import MTProtoApi
import MTProtoCore
import MTProtoTransport
import NIOCore
import TLRuntime

extension FuzzHarness {
    /// A message body as either end of a session reads it: `InboundWalk` through containers and packed objects, each
    /// leaf parsed as an MTProto object, an `rpc_result`, or a call whose wrappers are peeled.
    public static let mtprotoService = FuzzHarness(
        name: "mtproto-service",
        summary: "message bodies → containers, gzip_packed, service objects, rpc_result, wrappers"
    ) { input in
        var accepted = false
        let message = InnerMessage(messageId: Int64(2_000_000_000) << 32, seqNo: 2, body: input)
        InboundWalk.walk(
            message, limits: .init(maxDepth: 16, maxUnpackedSize: 1 << 20), accept: { _ in true },
            visit: { leaf, reader in
                let start = reader
                if let object = try? MTProto.parseObject(&reader) {
                    _ = object.serialized()
                    accepted = true
                    return
                }
                if let (_, result) = try? ServiceCodec.parseRpcResult(
                    leaf.body, limits: .init(maxDepth: 16, maxUnpackedSize: 1 << 20))
                {
                    accepted = accepted || !result.isEmpty
                    return
                }
                if let unwrapped = try? QueryWrappers.unwrap(leaf.body) {
                    var inner = TLReader(unwrapped.query, continuing: start)
                    if let function = try? MTProto.functions.parse(&inner) { _ = function.serialized() }
                    accepted = true
                }
            },
            refuse: { _, _ in })
        return accepted ? .accepted : .rejected
    }

    /// A server session fed decrypted messages: the input is a list of records `Δid:u8 seq:u8 length:u16le body`,
    /// delivered at a fixed clock; every reaction's replies are sealed, as the server would send them.
    public static let serverSession = FuzzHarness(
        name: "server-session", summary: "decrypted messages → ServerSession.receive → seal"
    ) { input in
        let key = AuthKey(bytes: [UInt8](repeating: 7, count: 256))!
        let schedule = SaltSchedule(secret: [1, 2, 3])
        let now = 1_800_000_000.0
        var session = ServerSession(authKey: key, sessionId: 1, schedule: schedule, handshakeSalt: nil)
        var id = Int64(now) << 32
        var offset = 0
        var anyAccepted = false
        while offset + 4 <= input.count {
            id += Int64(input[offset]) * 4 + 4
            let seq = Int32(input[offset + 1])
            let length = Int(input[offset + 2]) | Int(input[offset + 3]) << 8
            offset += 4
            let body = Array(input[offset..<min(input.count, offset + length)])
            offset += body.count
            // A seq byte with its top bit set makes the msg_id odd, to reach the parity check too.
            let messageId = seq & 0x80 != 0 ? id | 1 : id
            let message = DecryptedMessage(
                salt: schedule.salt(authKeyId: key.id, time: now), sessionId: 1, messageId: messageId,
                seqNo: seq & 0x7f, body: body)
            var reaction = session.receive(message, now: now)
            anyAccepted = anyAccepted || reaction.accepted
            for call in reaction.calls { reaction.replies.append(session.answer(call, error: 400, "FUZZ")) }
            for request in reaction.destroySessions {
                reaction.replies.append(session.destroySessionAnswer(request, existed: false))
            }
            _ = session.seal(reaction.replies, now: now)
        }
        return anyAccepted ? .accepted : .rejected
    }

    /// A byte stream through every framing's decoder (the first byte picks framing and role, the second the chunk
    /// size); each decoded frame is encoded again.
    public static let frameCodecs = FuzzHarness(
        name: "frame-codecs", summary: "transport byte streams → abridged / intermediate / padded / full frames"
    ) { input in
        guard input.count >= 2 else { return .rejected }
        let framing = TransportFraming.allCases[Int(input[0] & 3)]
        let role: TransportRole = input[0] & 4 == 0 ? .server : .client
        let chunk = max(1, Int(input[1]))
        var decoder = makeFrameCodec(framing, role: role)
        var encoder = makeFrameCodec(framing, role: role == .server ? .client : .server)
        var pending = ByteBuffer()
        var frames = 0
        var index = 2
        do {
            while index < input.count {
                pending.writeBytes(input[index..<min(input.count, index + chunk)])
                index += chunk
                while let frame = try decoder.decode(&pending) {
                    frames += 1
                    var out = ByteBuffer()
                    try? encoder.encode(frame, into: &out)
                }
            }
        } catch {
            return .rejected
        }
        return frames > 0 ? .accepted : .rejected
    }
}
