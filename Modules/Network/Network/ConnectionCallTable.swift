import AccountNetworking
import MTProtoCore

/// The calls of one `DatacenterConnection` still waiting for their outcome, by session token, each with the time
/// it gives up, and the batches they belong to. Who waits is opaque here: a `Caller` for a single call, a
/// `BatchCaller` for a batch, which gets every outcome at once when its last call ends (`RequestBatch`). Pure: the
/// connection's state machine keeps it and turns what it returns into actions.
struct ConnectionCallTable<Caller, BatchCaller> {
    /// A call or a batch that ended, for whoever waits for it.
    enum Completion {
        case call(Caller, Result<AnswerBytes, any Error>)
        case batch(BatchCaller, [Result<AnswerBytes, any Error>])
    }

    private enum Waiter {
        case single(Caller)
        case member(batch: Int64, index: Int)
    }

    private struct Entry {
        let waiter: Waiter
        /// When the call gives up (the connection's clock).
        let deadline: Double
        /// The timeout it was made with, for its `timedOut` error.
        let timeout: Double
    }

    private struct Batch {
        var outcomes: RequestBatch
        let caller: BatchCaller
    }

    private var calls: [Int64: Entry] = [:]
    private var batches: [Int64: Batch] = [:]

    /// Whether no call waits.
    var isEmpty: Bool { calls.isEmpty }

    /// How many calls wait.
    var count: Int { calls.count }

    /// Whether call `token` still waits.
    func contains(_ token: Int64) -> Bool { calls[token] != nil }

    /// The caller of single call `token` while it waits; nil for a batch's call (a batch hears only of its end).
    func caller(of token: Int64) -> Caller? {
        if case .single(let caller)? = calls[token]?.waiter { return caller }
        return nil
    }

    /// A single call queued as `token`, given up at `deadline`.
    mutating func add(_ token: Int64, caller: Caller, deadline: Double, timeout: Double) {
        calls[token] = Entry(waiter: .single(caller), deadline: deadline, timeout: timeout)
    }

    /// A batch of `count` calls, `id` unique among the batches that wait; its calls join with `add(_:batch:index:)`.
    mutating func openBatch(_ id: Int64, count: Int, caller: BatchCaller) {
        batches[id] = Batch(outcomes: RequestBatch(count: count), caller: caller)
    }

    /// Call `index` of batch `id`, queued as `token`.
    mutating func add(_ token: Int64, batch id: Int64, index: Int, deadline: Double, timeout: Double) {
        batches[id]?.outcomes.queued(index, token: token)
        calls[token] = Entry(waiter: .member(batch: id, index: index), deadline: deadline, timeout: timeout)
    }

    /// Call `index` of batch `id` ended before it was queued (it could not be encoded, or the session is closed).
    mutating func fail(batch id: Int64, index: Int, _ error: any Error) -> Completion? {
        record(batch: id, index: index, .failure(error))
    }

    /// Call `token` ended with `outcome`: its completion, or nil when nothing waits for it or its batch still has
    /// calls out.
    mutating func complete(_ token: Int64, _ outcome: Result<AnswerBytes, any Error>) -> Completion? {
        guard let entry = calls.removeValue(forKey: token) else { return nil }
        return finish(entry, outcome)
    }

    /// Every waiting call ends with `error` (the session closed).
    mutating func completeAll(_ error: any Error) -> [Completion] {
        let all = calls
        calls = [:]
        return all.values.compactMap { finish($0, .failure(error)) }
    }

    /// Every call whose deadline is `now` or earlier ends with `NetworkError.timedOut(timeout)`.
    mutating func completeOverdue(now: Double) -> [Completion] {
        guard calls.values.contains(where: { $0.deadline <= now }) else { return [] }
        var completions: [Completion] = []
        for (token, entry) in calls where entry.deadline <= now {
            calls[token] = nil
            if let completion = finish(entry, .failure(NetworkError.timedOut(entry.timeout))) {
                completions.append(completion)
            }
        }
        return completions
    }

    /// Withdraws the unanswered calls of batch `id` (its caller gave up): they end with `CancellationError`.
    /// Returns their tokens (what the session has to forget) and the batch's completion.
    mutating func cancel(batch id: Int64) -> (tokens: [Int64], completion: Completion?) {
        guard let batch = batches[id] else { return ([], nil) }
        let unanswered = batch.outcomes.unanswered.filter { calls.removeValue(forKey: $0.token) != nil }
        var completion: Completion?
        for (index, _) in unanswered {
            completion = record(batch: id, index: index, .failure(CancellationError())) ?? completion
        }
        return (unanswered.map(\.token), completion)
    }

    private mutating func finish(_ entry: Entry, _ outcome: Result<AnswerBytes, any Error>) -> Completion? {
        switch entry.waiter {
        case .single(let caller): return .call(caller, outcome)
        case .member(let id, let index): return record(batch: id, index: index, outcome)
        }
    }

    private mutating func record(
        batch id: Int64, index: Int, _ outcome: Result<AnswerBytes, any Error>
    ) -> Completion? {
        guard batches[id]?.outcomes.record(index, outcome) == true, let batch = batches.removeValue(forKey: id) else {
            return nil
        }
        return .batch(batch.caller, batch.outcomes.results())
    }
}
