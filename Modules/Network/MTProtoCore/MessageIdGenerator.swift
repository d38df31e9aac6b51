/// Makes msg_ids (MTProto §Message Identifier): the Unix time in the upper 32 bits and a fraction of a second in
/// the lower, strictly increasing per session. Client ids are divisible by 4; server ids are odd (≡ 1 mod 4 for
/// responses, ≡ 3 mod 4 for messages the server sends on its own).
public struct MessageIdGenerator: Sendable {
    /// Whose ids these are.
    public enum Kind: Sendable {
        case client, serverResponse, serverInitiated

        var remainder: Int64 {
            switch self {
            case .client: return 0
            case .serverResponse: return 1
            case .serverInitiated: return 3
            }
        }
    }

    /// Seconds to add to the local clock to get the server's (learnt from `bad_msg_notification` 16/17 or from
    /// the msg_id of a server message).
    public var timeOffset: Double = 0
    private var last: Int64 = 0

    public init(timeOffset: Double = 0) {
        self.timeOffset = timeOffset
    }

    /// The next id for `kind` at local time `now` (seconds since 1970).
    public mutating func next(_ kind: Kind, now: Double) -> Int64 {
        let time = now + timeOffset
        let seconds = Int64(time.rounded(.down))
        let fraction = Int64((time - Double(seconds)) * 4_294_967_296)
        var id = (seconds << 32) | (fraction & 0xffff_fffc)
        id = id - (id & 3) + kind.remainder
        if id <= last {
            // Same instant (or the clock moved back): step past the last id, keeping the remainder.
            id = last - (last & 3) + 4 + kind.remainder
        }
        last = id
        return id
    }

    /// Adopts the server's clock from one of its msg_ids received at local time `now`.
    /// The last id is forgotten too, so ids drawn from a clock that ran fast can come down to the server's time
    /// (ids need to be unique and inside the server's window, not to keep rising across a correction).
    public mutating func synchronize(serverMessageId: Int64, now: Double) {
        timeOffset = Double(serverMessageId >> 32) - now
        last = 0
    }

    /// The Unix time a msg_id encodes.
    public static func time(of messageId: Int64) -> Double {
        Double(messageId >> 32) + Double(UInt32(truncatingIfNeeded: messageId)) / 4_294_967_296
    }
}
