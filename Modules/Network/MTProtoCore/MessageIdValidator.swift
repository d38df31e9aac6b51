/// The receive-side checks on msg_ids that MTProto's security guidelines require: an id too far in the past
/// (older than 300 s) or the future (more than 30 s ahead) is refused, and so is any id already seen.
///
/// Memory is bounded: the ids inside the window are kept sorted, at most `capacity` of them; when full, the
/// smallest is dropped and becomes a floor under which every id is refused (it could be a replay we can no longer
/// tell apart). Ids that leave the time window need no floor: they are refused as too old.
public struct MessageIdValidator: Sendable {
    /// Why an id was refused.
    public enum Rejection: Error, Equatable, Sendable {
        case tooOld, tooNew, duplicate, wrongParity
    }

    public static let maximumAge: Double = 300
    public static let maximumLead: Double = 30

    /// Whose ids are checked: a client checks the server's (odd), a server checks a client's (≡ 0 mod 4).
    public enum Peer: Sendable { case server, client }

    public let peer: Peer
    public let capacity: Int
    private var sorted: [Int64] = []
    private var floor = Int64.min

    public init(peer: Peer, capacity: Int = 4096) {
        self.peer = peer
        self.capacity = max(1, capacity)
    }

    /// Accepts `id` (remembering it) or says why not, at server-corrected time `now`.
    public mutating func accept(_ id: Int64, now: Double) -> Rejection? {
        switch peer {
        case .server where id & 1 != 1: return .wrongParity
        case .client where id & 3 != 0: return .wrongParity
        default: break
        }
        let time = MessageIdGenerator.time(of: id)
        if time < now - Self.maximumAge { return .tooOld }
        if time > now + Self.maximumLead { return .tooNew }
        if id <= floor { return .duplicate }
        let index = insertionIndex(of: id)
        if index < sorted.count, sorted[index] == id { return .duplicate }
        sorted.insert(id, at: index)
        var expired = 0
        while expired < sorted.count, MessageIdGenerator.time(of: sorted[expired]) < now - Self.maximumAge {
            expired += 1
        }
        sorted.removeFirst(expired)
        if sorted.count > capacity { floor = max(floor, sorted.removeFirst()) }
        return nil
    }

    /// Whether `id` was accepted and is still remembered.
    public func hasSeen(_ id: Int64) -> Bool {
        let index = insertionIndex(of: id)
        return index < sorted.count && sorted[index] == id
    }

    private func insertionIndex(of id: Int64) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
