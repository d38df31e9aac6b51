/// Sequence numbers of a secret chat (core.telegram.org/api/end-to-end/seq_no): raw counters start at (0, 0) and
/// move by one per message sent or received and processed, service messages included. On the wire each is
/// `2 × raw + x`, the low bit telling the originator's messages from the participant's so that a message cannot be
/// mirrored back to its sender:
///
/// | | in_seq_no | out_seq_no |
/// |---|---|---|
/// | sent by the originator | 0 | 1 |
/// | sent by the participant | 1 | 0 |
public struct SecretChatSequence: Sendable, Codable, Equatable {
    public let role: SecretChatRole
    /// Messages this side has sent (the next one's raw out_seq_no).
    public internal(set) var outRaw: Int32 = 0
    /// Messages received and processed in order (the raw out_seq_no expected next).
    public internal(set) var inRaw: Int32 = 0

    public init(role: SecretChatRole) { self.role = role }

    /// What to do with a received message's numbers.
    public enum Verdict: Equatable, Sendable {
        /// The next one expected: process it (then `accept()`).
        case inOrder
        /// Already processed (a duplicate or a replay): drop it silently.
        case duplicate
        /// Messages `missing` (raw, of the other side) were not received: hold this one and ask for them.
        case gap(missing: ClosedRange<Int32>)
        /// Wrong parity, or it claims to have received messages never sent: the chat must be closed.
        case violation(String)
    }

    static func parity(of sender: SecretChatRole) -> (inBit: Int32, outBit: Int32) {
        sender == .originator ? (0, 1) : (1, 0)
    }

    var peer: SecretChatRole { role == .originator ? .participant : .originator }

    /// The wire numbers of the next message this side sends, and the counter moved on.
    mutating func nextOutgoing() -> (inSeqNo: Int32, outSeqNo: Int32, raw: Int32) {
        let bits = SecretChatSequence.parity(of: role)
        let numbers = (2 * inRaw + bits.inBit, 2 * outRaw + bits.outBit, outRaw)
        outRaw += 1
        return numbers
    }

    /// The wire numbers a message this side sent as raw `raw` carried, for a resend (same numbers, same message).
    func wireOut(raw: Int32) -> Int32 { 2 * raw + SecretChatSequence.parity(of: role).outBit }

    /// Checks a received message's wire numbers against what was sent and received.
    public func check(inSeqNo: Int32, outSeqNo: Int32) -> Verdict {
        let bits = SecretChatSequence.parity(of: peer)
        guard inSeqNo >= 0, outSeqNo >= 0, inSeqNo & 1 == bits.inBit, outSeqNo & 1 == bits.outBit else {
            return .violation("seq_no parity (in \(inSeqNo), out \(outSeqNo)) is not the \(peer)'s")
        }
        let theirIn = (inSeqNo - bits.inBit) / 2
        let theirOut = (outSeqNo - bits.outBit) / 2
        guard theirIn <= outRaw else {
            return .violation("in_seq_no \(inSeqNo) acknowledges \(theirIn) messages; only \(outRaw) were sent")
        }
        if theirOut < inRaw { return .duplicate }
        if theirOut > inRaw { return .gap(missing: inRaw...(theirOut - 1)) }
        return .inOrder
    }

    /// The raw out number of a received message (after `check`).
    func rawOut(ofReceived outSeqNo: Int32) -> Int32 { (outSeqNo - SecretChatSequence.parity(of: peer).outBit) / 2 }

    /// Counts the in-order message just processed.
    mutating func accept() { inRaw += 1 }

    /// The wire range a `decryptedMessageActionResend` asks for, in the other side's out_seq_no numbering.
    func resendRequest(for missing: ClosedRange<Int32>) -> (start: Int32, end: Int32) {
        let bit = SecretChatSequence.parity(of: peer).outBit
        return (2 * missing.lowerBound + bit, 2 * missing.upperBound + bit)
    }

    /// The raw range of this side's messages a received resend request names; nil when its parity or bounds are
    /// wrong (it may ask only for messages that were sent).
    func resendRange(start: Int32, end: Int32) -> ClosedRange<Int32>? {
        let bit = SecretChatSequence.parity(of: role).outBit
        guard start >= 0, end >= start, start & 1 == bit, end & 1 == bit else { return nil }
        let range = ((start - bit) / 2)...((end - bit) / 2)
        guard range.upperBound < outRaw else { return nil }
        return range
    }
}
