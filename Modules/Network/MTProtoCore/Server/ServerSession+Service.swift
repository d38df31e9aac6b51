import CryptoUtils
import MTProtoApi
import TLRuntime

extension ServerSession {
    /// Service objects a client may send on its own (MTProto §Service Messages).
    mutating func handleService(_ object: any TLObject, message: InnerMessage, into reaction: inout Reaction) {
        switch object {
        case let ack as MTProto.MsgsAck:
            // §Acknowledgment of Receipt: not content-related, so its seq_no is even.
            if message.isContentRelated { reaction.replies.append(badMessage(message, code: 34)) }
            if case .msgsAck(let value) = ack {
                if value.msgIds.count > MessageLimits.maximumIdsPerRequest {
                    reaction.dropped.append("msgs_ack with \(value.msgIds.count) ids")
                } else {
                    unacknowledged.remove(Set(value.msgIds))
                }
            }
        case let request as MTProto.MsgsStateReq:
            guard case .msgsStateReq(let req) = request else { return }
            guard req.msgIds.count <= MessageLimits.maximumIdsPerRequest else {
                reaction.dropped.append("msgs_state_req with \(req.msgIds.count) ids")
                return
            }
            reaction.replies.append(stateInfo(about: req.msgIds, question: message.messageId))
        case let request as MTProto.MsgResendReq:
            switch request {
            case .msgResendReq(let req):
                resend(req.msgIds, into: &reaction)
            case .msgResendAnsReq(let req):
                resendAnswers(req.msgIds, question: message.messageId, into: &reaction)
            }
        case let wait as MTProto.HttpWait:
            // MTProto over HTTP (core.telegram.org/mtproto/service_messages "http_wait"): how long the request that
            // carried this may be held; the transport applies it.
            guard case .httpWait(let value) = wait else { return }
            reaction.httpWait = .init(maxDelay: value.maxDelay, waitAfter: value.waitAfter, maxWait: value.maxWait)
        default:
            reaction.dropped.append("unexpected service object \(type(of: object))")
        }
    }

    /// §Request for Message Status Information: one byte per id, in the order asked — 4 (received: this session
    /// accepted that msg_id) with +32 and +64 when the request was run and its answer generated (the answer is
    /// remembered, `answerIds`), else 1 (nothing known: never seen, or out of the window and forgotten).
    func stateInfo(about ids: [Int64], question: Int64) -> MessageSealer.Outgoing {
        let info = ids.map { id -> UInt8 in
            if answerIds[id] != nil { return 4 | 32 | 64 }
            return validator.hasSeen(id) ? 4 : 1
        }
        let answer = MTProto.MsgsStateInfo.msgsStateInfo(.init(reqMsgId: question, info: info))
        return .init(body: answer.serialized(), contentRelated: true, kind: .serverResponse)
    }

    /// §Explicit Request to Re-Send Messages: send again, as new messages, what is still cached — each message once
    /// however often it is named, and no more than maximumResendBytes in all.
    mutating func resend(_ ids: [Int64], into reaction: inout Reaction) {
        guard ids.count <= MessageLimits.maximumIdsPerRequest else {
            reaction.dropped.append("msg_resend_req with \(ids.count) ids")
            return
        }
        var named = Set<Int64>()
        var bytes = 0
        for id in ids where named.insert(id).inserted {
            guard let old = resendCache.message(id) else { continue }
            guard bytes + old.body.count <= MessageLimits.maximumResendBytes else {
                reaction.dropped.append("msg_resend_req past \(MessageLimits.maximumResendBytes) bytes")
                break
            }
            bytes += old.body.count
            reaction.replies.append(.init(body: old.body, contentRelated: old.isContentRelated, kind: .serverResponse))
        }
    }

    /// `msg_resend_ans_req` (§Explicit Request to Re-Send Answers): the answers to the client's requests `ids` again,
    /// as new messages, from the resend cache (at most maximumResendBytes in all). When one of them is not there (never
    /// answered, or forgotten), `msgs_state_info` about all of them follows, as if they had been asked about with
    /// `msgs_state_req` (as the docs say of `msg_resend_req`).
    mutating func resendAnswers(_ ids: [Int64], question: Int64, into reaction: inout Reaction) {
        guard ids.count <= MessageLimits.maximumIdsPerRequest else {
            reaction.dropped.append("msg_resend_ans_req with \(ids.count) ids")
            return
        }
        var named = Set<Int64>()
        var bytes = 0
        var missing = false
        for id in ids where named.insert(id).inserted {
            guard let answerId = answerIds[id], let old = resendCache.message(answerId),
                bytes + old.body.count <= MessageLimits.maximumResendBytes
            else {
                missing = true
                continue
            }
            bytes += old.body.count
            reaction.replies.append(.init(body: old.body, contentRelated: true, kind: .serverResponse))
        }
        if missing { reaction.replies.append(stateInfo(about: ids, question: question)) }
    }

    /// MTProto functions: ping, ping_delay_disconnect, get_future_salts, destroy_session, rpc_drop_answer.
    mutating func handleServiceCall(
        _ function: any TLFunction, message: InnerMessage, now: Double, into reaction: inout Reaction
    ) {
        switch function {
        case let ping as MTProto.functions.ping:
            let pong = MTProto.Pong.pong(.init(msgId: message.messageId, pingId: ping.pingId))
            reaction.replies.append(.init(body: pong.serialized(), contentRelated: true, kind: .serverResponse))
        case let ping as MTProto.functions.pingDelayDisconnect:
            let pong = MTProto.Pong.pong(.init(msgId: message.messageId, pingId: ping.pingId))
            reaction.replies.append(.init(body: pong.serialized(), contentRelated: true, kind: .serverResponse))
            reaction.disconnectDelay = ping.disconnectDelay
        case let request as MTProto.functions.getFutureSalts:
            let salts = schedule.futureSalts(authKeyId: authKey.id, time: now, count: Int(request.num)).map {
                MTProto.FutureSalt.futureSalt(
                    .init(validSince: $0.validSince, validUntil: $0.validUntil, salt: $0.salt))
            }
            let answer = MTProto.FutureSalts.futureSalts(
                .init(reqMsgId: message.messageId, now: Int32(clamping: Int64(now)), salts: salts))
            // future_salts is sent as is, not inside rpc_result (MTProto §Request for several future salts).
            reaction.replies.append(.init(body: answer.serialized(), contentRelated: true, kind: .serverResponse))
        case let request as MTProto.functions.destroySession:
            guard request.sessionId != sessionId else {
                // A session cannot destroy itself (MTProto §Request to destroy session: "other than the current").
                reaction.replies.append(
                    destroySessionAnswer(
                        .init(requestMessageId: message.messageId, sessionId: sessionId), existed: false))
                return
            }
            reaction.destroySessions.append(.init(requestMessageId: message.messageId, sessionId: request.sessionId))
        case is MTProto.functions.rpcDropAnswer:
            reaction.replies.append(result(message.messageId, MTProto.RpcDropAnswer.rpcAnswerUnknown.serialized()))
        default:
            reaction.replies.append(rpcError(message.messageId, code: 400, text: "METHOD_NOT_IMPLEMENTED"))
        }
    }
}

/// Messages the server sent recently, for `msg_resend_req`: at most `entries` of them and `bytes` bytes, the oldest
/// forgotten first.
///
/// A ring in the order they were sent, not a table: remembering is the hot path (every message sealed), looking up is
/// rare (a resend request, a reconnect) and scans at most `entries` messages.
struct ResendCache: Sendable {
    let entries: Int
    let bytes: Int
    /// Oldest first from `head`; forgotten slots before it are `nil` until the ring is compacted.
    private var messages: [InnerMessage?] = []
    private var head = 0
    private var total = 0

    init(entries: Int, bytes: Int) {
        self.entries = entries
        self.bytes = bytes
    }

    /// How many messages are kept.
    var count: Int { messages.count - head }

    mutating func remember(_ message: InnerMessage) {
        guard message.body.count <= bytes else { return }
        // A sealer's msg_ids only grow, so a message newer than the newest kept is not kept yet; anything else is
        // looked for.
        if let last = messages.last, let newest = last, message.messageId <= newest.messageId,
            self.message(message.messageId) != nil
        {
            return
        }
        messages.append(message)
        total += message.body.count
        while messages.count - head > entries || total > bytes {
            total -= messages[head]?.body.count ?? 0
            messages[head] = nil
            head += 1
        }
        if head > 1024 {
            messages.removeFirst(head)
            head = 0
        }
    }

    func message(_ id: Int64) -> InnerMessage? {
        for index in stride(from: messages.count - 1, through: head, by: -1) where messages[index]?.messageId == id {
            return messages[index]
        }
        return nil
    }
}

/// Message ids in the order they were added, at most `capacity` (adding past it forgets the oldest).
struct OrderedIds: Sendable {
    let capacity: Int
    private(set) var ids: [Int64] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds `id`; returns the id forgotten to make room, if any.
    @discardableResult
    mutating func append(_ id: Int64) -> Int64? {
        ids.append(id)
        return ids.count > capacity ? ids.removeFirst() : nil
    }

    mutating func remove(_ gone: Set<Int64>) {
        ids.removeAll { gone.contains($0) }
    }
}

/// Random bytes for packets' padding (12…1024 bytes each, MTProto 2.0 §Encryption): drawn from `SecureRandom` in
/// blocks of `blockSize` and handed out once each, so a packet costs a copy rather than a call into the generator.
/// Holds at most one block.
struct PaddingPool: Sendable {
    static let blockSize = 512
    private var block: [UInt8] = []
    private var offset = 0

    mutating func take(_ count: Int) -> [UInt8] {
        guard count <= Self.blockSize else { return SecureRandom.bytes(count) }
        if offset + count > block.count {
            block = SecureRandom.bytes(Self.blockSize)
            offset = 0
        }
        defer { offset += count }
        return Array(block[offset..<(offset + count)])
    }
}
