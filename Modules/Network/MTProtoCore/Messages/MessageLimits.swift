/// The bounds both ends of a session keep, each from MTProto's service-message and container rules, so that no
/// message a peer sends can make this end build something larger than a few megabytes.
public enum MessageLimits {
    /// Messages one container may hold (MTProto §Containers; Telegram refuses more than 1020, below the 1,024 the
    /// docs give).
    public static let maximumContainerMessages = 1020
    /// Bytes of messages (with their 16-byte headers) one outgoing container may hold: about 1 MB, as the docs
    /// give for containers. A single larger message travels on its own.
    public static let maximumContainerBytes = 1 << 20
    /// Message ids one `msgs_ack`, `msgs_state_req` or `msg_resend_req` may name (MTProto §Service Messages: id
    /// vectors hold at most 8,192 entries).
    public static let maximumIdsPerRequest = 8192
    /// The largest body of one message: a 1 MiB file part or result with room for its TL envelope.
    public static let maximumBodyLength = (1 << 20) + 64 * 1024
    /// Bytes the answers to one `msg_resend_req` may total; the rest is not re-sent (the peer may ask again).
    public static let maximumResendBytes = 1 << 20
}
