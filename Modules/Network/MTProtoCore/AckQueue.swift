/// Message ids waiting to be acknowledged with one `msgs_ack` (MTProto §Acknowledgment of Receipt): the receiver
/// batches them and sends them with the next outgoing message, or on its own when enough have piled up.
public struct AckQueue: Sendable {
    /// The most ids one msgs_ack carries (Telegram accepts up to 8192 per vector).
    public static let maximumBatch = 8192
    private var ids: [Int64] = []
    /// The largest id ever added (an upper bound on `ids`).
    private var largest = Int64.min

    public init() {}

    /// How many ids are waiting.
    public var count: Int { ids.count }

    /// Records that `id` (a content-related message) must be acknowledged.
    public mutating func add(_ id: Int64) {
        // A peer's msg_ids mostly rise: one above every id ever queued cannot be queued already.
        if id > largest {
            largest = id
            ids.append(id)
        } else if !ids.contains(id) {
            ids.append(id)
        }
    }

    /// Takes up to `maximumBatch` ids for one msgs_ack.
    public mutating func take() -> [Int64] {
        let batch = Array(ids.prefix(Self.maximumBatch))
        ids.removeFirst(batch.count)
        return batch
    }
}
