import MTProtoCore

/// The outcomes of calls submitted together (`DatacenterConnection.invokeBatch`), kept by position: each slot takes
/// its first outcome — an answer's bytes, an `rpc_error`, a timeout, a cancellation — and ignores any later one, and
/// the batch is complete when every slot has one. Pure: the connection keeps it on its event loop and resolves one
/// promise for the whole batch, so answering 64 calls costs one wake-up of the caller instead of 64.
struct RequestBatch {
    private var outcomes: [Result<AnswerBytes, any Error>?]
    /// The session token each slot was queued under (nil while not queued: encoding failed, or not yet submitted).
    private(set) var tokens: [Int64?]
    /// Slots still without an outcome.
    private(set) var remaining: Int

    init(count: Int) {
        outcomes = Array(repeating: nil, count: count)
        tokens = Array(repeating: nil, count: count)
        remaining = count
    }

    var isComplete: Bool { remaining == 0 }

    /// Slot `index` was queued in the session as `token`.
    mutating func queued(_ index: Int, token: Int64) {
        tokens[index] = token
    }

    /// Gives slot `index` its outcome; returns true when this completed the batch. A slot that already has one
    /// keeps it (an answer that arrives after the call timed out or was cancelled changes nothing).
    @discardableResult
    mutating func record(_ index: Int, _ outcome: Result<AnswerBytes, any Error>) -> Bool {
        guard outcomes[index] == nil else { return false }
        outcomes[index] = outcome
        remaining -= 1
        return remaining == 0
    }

    /// The queued slots still without an outcome, with their tokens (what a cancellation has to withdraw).
    var unanswered: [(index: Int, token: Int64)] {
        tokens.indices.compactMap { index in
            guard outcomes[index] == nil, let token = tokens[index] else { return nil }
            return (index, token)
        }
    }

    /// Every outcome in submission order; only once complete.
    func results() -> [Result<AnswerBytes, any Error>] {
        precondition(isComplete, "a batch read before every call ended")
        return outcomes.map { $0! }
    }
}
