/// The packets a client session sealed with requests in them, by the quick-ack token the server will answer with
/// (core.telegram.org/mtproto/mtproto-transports "Quick ack"): which packets ask for a quick ack, and which requests
/// a quick ack says the server has received. Bounded: past `capacity` packets, the oldest are forgotten (their quick
/// acks then change nothing; the answers still come).
struct QuickAckWaits {
    /// At most this many packets are remembered.
    static let capacity = 1024

    private var requestsByToken: [UInt32: [Int64]] = [:]
    private var tokenByMessageKey: [[UInt8]: UInt32] = [:]
    /// Message keys in the order they were sealed, for forgetting the oldest.
    private var order: [[UInt8]] = []
    private var oldest = 0

    /// How many packets are remembered.
    var count: Int { tokenByMessageKey.count }

    /// A packet sealed with msg_key `messageKey` and quick-ack token `token`, carrying requests `requests` (tokens).
    mutating func sealed(messageKey: [UInt8], token: UInt32, requests: [Int64]) {
        guard !requests.isEmpty else { return }
        if tokenByMessageKey.count >= Self.capacity { forgetOldest() }
        requestsByToken[token, default: []] += requests
        tokenByMessageKey[messageKey] = token
        order.append(messageKey)
    }

    /// Whether `packet` (an encrypted packet: auth_key_id, msg_key, …) carries requests and should ask for a quick ack.
    func asksForQuickAck(_ packet: [UInt8]) -> Bool {
        packet.count >= 24 && tokenByMessageKey[Array(packet[8..<24])] != nil
    }

    /// The requests of the packet the server acknowledged with `token`, forgotten here; empty for a token this
    /// session does not know.
    mutating func acknowledged(_ token: UInt32) -> [Int64] {
        requestsByToken.removeValue(forKey: token) ?? []
    }

    private mutating func forgetOldest() {
        while oldest < order.count {
            let key = order[oldest]
            oldest += 1
            if let token = tokenByMessageKey.removeValue(forKey: key) {
                requestsByToken[token] = nil
                break
            }
        }
        // Keep the order list from growing without bound.
        if oldest > Self.capacity {
            order.removeFirst(oldest)
            oldest = 0
        }
    }
}
