/// Per-session msg_seqno (MTProto §Message Sequence Number): twice the number of content-related messages sent
/// before this one, plus one if this one is content-related. Acks, pings' answers and containers are not
/// content-related.
public struct SequenceNumbers: Sendable {
    /// Content-related messages numbered so far.
    public private(set) var contentMessages: Int32 = 0

    public init() {}

    /// The seq_no for the next message, counting it when `contentRelated`.
    public mutating func next(contentRelated: Bool) -> Int32 {
        if contentRelated {
            defer { contentMessages += 1 }
            return contentMessages * 2 + 1
        }
        return contentMessages * 2
    }
}
