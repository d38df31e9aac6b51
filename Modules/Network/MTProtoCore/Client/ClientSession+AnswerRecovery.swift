import MTProtoApi
import TLRuntime

/// Recovering the answers of acknowledged requests a reconnect found too old to send again unchanged
/// (`AnswerRecovery`; core.telegram.org/mtproto/service_messages_about_messages).
extension ClientSession {
    /// `seal(_:now:)` with questions about acknowledged requests after the requests: one `msgs_state_req` or
    /// `msg_resend_ans_req` per `MessageLimits.maximumIdsPerRequest` ids, each remembered by its msg_id.
    mutating func seal(
        _ requests: [Pending], questions: [(AnswerRecovery.Question, [Int64])], now: Double
    ) -> [[UInt8]] {
        var asked: [(AnswerRecovery.Question, [Int64])] = []
        for (question, ids) in questions {
            for start in stride(from: 0, to: ids.count, by: MessageLimits.maximumIdsPerRequest) {
                asked.append((question, Array(ids[start..<min(ids.count, start + MessageLimits.maximumIdsPerRequest)])))
            }
        }
        let bodies = asked.map { question, ids -> Pending in
            let body: [UInt8] =
                switch question {
                case .state: MTProto.MsgsStateReq.msgsStateReq(.init(msgIds: ids)).serialized()
                case .answers: MTProto.MsgResendReq.msgResendAnsReq(.init(msgIds: ids)).serialized()
                }
            return Pending(token: 0, body: body, contentRelated: true, isQuestion: true)
        }
        let packets = seal(requests + bodies, now: now)
        for (offset, (question, ids)) in asked.enumerated() where requests.count + offset < lastSealedIds.count {
            recovery.asked(question, messageId: lastSealedIds[requests.count + offset], ids: ids)
        }
        return packets
    }

    /// §Request for Message Status Information: acts on the server's `msgs_state_info` about requests this session
    /// asked after (`AnswerRecovery.decision`): sends anew what never arrived, asks for the answers that exist, fails
    /// what the server can no longer tell about. Telegram-iOS MtProtoKit keeps a request the server confirmed
    /// (`messageDeliveryConfirmed` marks it `delivered`, submodules/MtProtoKit/Sources/MTRequestMessageService.m) out
    /// of every later transaction, and asks for a lost answer with `msg_resend_req` (MTResendMessageService.m).
    mutating func recover(
        _ questionId: Int64, info: [UInt8], events: inout [Event], resend: inout [Pending]
    ) {
        guard let (question, ids) = recovery.answered(questionId) else { return }
        for (index, id) in ids.enumerated() {
            // Answered meanwhile (the answer may come before the status).
            guard let request = pending[id] else { continue }
            // Ids past the end of a short answer are ones the server said nothing about.
            let status = index < info.count ? info[index] : AnswerRecovery.Status.nothingKnown
            switch AnswerRecovery.decision(for: status, after: question) {
            case .sendAnew:
                pending[id] = nil
                resend.append(request)
            case .askForAnswer:
                if let last = questionsToAsk.last, last.0 == .answers {
                    questionsToAsk[questionsToAsk.count - 1].1.append(id)
                } else {
                    questionsToAsk.append((.answers, [id]))
                }
            case .wait:
                break
            case .fail:
                pending[id] = nil
                events.append(.result(token: request.token, .failure(Self.answerLost)))
            }
        }
    }

    /// A question the server refused (`bad_server_salt`, `bad_msg_notification`) goes again, about the requests of
    /// it that still wait; a refused msg_id that was not a question changes nothing here. Each refusal counts as an
    /// attempt of those requests: one refused `maximumAttempts` times is handed to `resend` past its limit, which
    /// fails it with `RESEND_LIMIT_REACHED` (never sealed anew).
    mutating func askAgain(_ refusedId: Int64, resend: inout [Pending]) {
        guard let (question, ids) = recovery.answered(refusedId) else { return }
        var waiting: [Int64] = []
        for id in ids {
            guard var request = pending[id] else { continue }
            request.attempts += 1
            if request.attempts >= Self.maximumAttempts {
                pending[id] = nil
                resend.append(request)
            } else {
                pending[id] = request
                waiting.append(id)
            }
        }
        if !waiting.isEmpty { questionsToAsk.append((question, waiting)) }
    }
}
