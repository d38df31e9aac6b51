/// The questions a client session asks about requests the server already has but whose answers a lost connection may
/// have taken with it, once those requests are too old to send again unchanged (core.telegram.org/mtproto/
/// service_messages_about_messages "Request for Message Status Information", "Explicit Request to Re-Send Answers").
///
/// A request the server acknowledged (a quick ack, or a `msgs_ack` naming it) has reached it, and may have run. While
/// its msg_id is recent the session sends it again unchanged and the server, which refuses a duplicate id, answers it
/// again from its cache; past `ClientSession.resendWithSameIdWithin` that id may be outside the server's window, and a
/// copy under a new msg_id would run it a second time. So the session asks instead: `msgs_state_req` for its state,
/// then `msg_resend_ans_req` for its answer. Bounded: one question per id at a time, at most
/// `MessageLimits.maximumIdsPerRequest` ids a question, and no more questions kept than `capacity`.
struct AnswerRecovery: Sendable {
    /// What a question asked.
    enum Question: Sendable, Equatable {
        /// `msgs_state_req`: what the server knows of each request.
        case state
        /// `msg_resend_ans_req`: the answers again.
        case answers
    }

    /// What to do with one request after the server's `msgs_state_info` about it.
    enum Decision: Sendable, Equatable {
        /// The server never received it (status 2 or 3): it never ran, so it goes again under a new msg_id.
        case sendAnew
        /// Its answer exists (or the server received it and may have one): ask for it with `msg_resend_ans_req`.
        case askForAnswer
        /// The server is still running it: its answer comes on its own.
        case wait
        /// The server has forgotten it (status 1), or has no answer left to send again: it may have run, so it fails
        /// rather than run twice.
        case fail
    }

    /// The `msgs_state_info` bits (core.telegram.org/mtproto/service_messages_about_messages): the low three bits are
    /// 1 (nothing known: the id is too low, the server may have forgotten it), 2 (not received, the id is in the
    /// range the server keeps), 3 (not received, the id is too high) or 4 (received); +32 the request is being
    /// processed or was processed; +64 its answer was already generated.
    enum Status {
        static let nothingKnown: UInt8 = 1
        static let received: UInt8 = 4
        static let processing: UInt8 = 32
        static let answerGenerated: UInt8 = 64
    }

    /// At most this many questions are remembered; past it the oldest are forgotten (their requests are asked about
    /// again after the next reconnect, or fail at their callers' deadlines).
    static let capacity = 64

    private var questions: [Int64: (question: Question, ids: [Int64])] = [:]
    private var order: [Int64] = []

    /// How many questions wait for an answer.
    var count: Int { questions.count }

    /// What the server's status byte about a request means, after `question`.
    static func decision(for status: UInt8, after question: Question) -> Decision {
        switch status & 7 {
        case 2, 3:
            return .sendAnew
        case Status.received:
            if status & Status.answerGenerated != 0 {
                // After `msg_resend_ans_req`, a generated answer the server did not send again is one it dropped.
                return question == .state ? .askForAnswer : .fail
            }
            if status & Status.processing != 0 { return .wait }
            return question == .state ? .askForAnswer : .fail
        default:
            // 1, or a value the spec does not define: the server cannot tell whether it ran.
            return .fail
        }
    }

    /// Question `messageId` (sealed) asks `question` about the requests `ids`.
    mutating func asked(_ question: Question, messageId: Int64, ids: [Int64]) {
        guard !ids.isEmpty else { return }
        questions[messageId] = (question, ids)
        order.append(messageId)
        while order.count > Self.capacity {
            questions[order.removeFirst()] = nil
        }
    }

    /// The question `msgs_state_info` answers (by its `req_msg_id`), forgotten here; nil for one this session did
    /// not ask (or forgot).
    mutating func answered(_ questionId: Int64) -> (question: Question, ids: [Int64])? {
        guard let entry = questions.removeValue(forKey: questionId) else { return nil }
        order.removeAll { $0 == questionId }
        return entry
    }

    /// Forgets the questions none of whose requests still waits (`waiting` says which do).
    mutating func prune(_ waiting: (Int64) -> Bool) {
        for (id, entry) in questions where !entry.ids.contains(where: waiting) { questions[id] = nil }
        order.removeAll { questions[$0] == nil }
    }
}
