/// The receive-side checks on msg_id and msg_seqno that MTProto's security guidelines and §Message Sequence Number
/// require: an id too far in the past (older than 300 s) or the future (more than 30 s ahead) is refused, so is any
/// id already seen, and so is a seq_no that does not fit the seq_nos of the messages around it.
///
/// seq_no is twice the number of content-related messages the peer created before, plus one for a content-related
/// message, and msg_ids rise in creation order; so for two messages a < b (by msg_id), seq(b) ≥ seq(a), and
/// seq(b) > seq(a) when a is content-related (odd). A new message is checked against its nearest remembered
/// neighbours on both sides: a seq_no below what its predecessor allows is "too low" (error 32), one above what its
/// successor allows is "too high" (error 33).
///
/// Memory is bounded: the ids inside the window are kept sorted, at most `capacity` of them; when full, the
/// smallest is dropped and becomes a floor under which every id is refused (it could be a replay we can no longer
/// tell apart). Ids that leave the time window raise the floor too.
///
/// seq_nos count within one session of the peer. When the peer starts that session afresh (a server that restarted
/// sends `new_session_created`, core.telegram.org/mtproto/service_messages "New Session Creation Notification"),
/// its seq_nos start again from 0: `startNewSequence()` keeps every id (duplicates and the floor are still
/// refused) and compares later seq_nos only with those of the new sequence.
public struct MessageIdValidator: Sendable {
    /// Why an id was refused.
    public enum Rejection: Error, Equatable, Sendable {
        case tooOld, tooNew, duplicate, wrongParity
        /// seq_no lower than an earlier message allows (bad_msg_notification 32).
        case seqNoTooLow
        /// seq_no higher than a later message allows (bad_msg_notification 33).
        case seqNoTooHigh

        /// The bad_msg_notification error code that reports this rejection.
        public var notificationCode: Int32? {
            switch self {
            case .tooOld: return 16
            case .tooNew: return 17
            case .wrongParity: return 18
            case .seqNoTooLow: return 32
            case .seqNoTooHigh: return 33
            case .duplicate: return nil
            }
        }
    }

    public static let maximumAge: Double = 300
    public static let maximumLead: Double = 30

    /// Whose ids are checked: a client checks the server's (odd), a server checks a client's (≡ 0 mod 4).
    public enum Peer: Sendable { case server, client }

    private struct Entry {
        let id: Int64
        let seqNo: Int32
        /// The peer's session this seq_no counts in (`startNewSequence`); neighbours of another are not compared.
        let sequence: UInt32
    }

    public let peer: Peer
    public let capacity: Int
    /// The remembered ids, ascending, from `start` on: entries before `start` were dropped (expired, or over
    /// capacity) and are compacted away in bulk, so dropping the oldest id costs O(1) instead of moving them all.
    private var sorted: [Entry] = []
    private var start = 0
    private var floor = Int64.min
    /// The sequence messages accepted from now on belong to.
    private var sequence: UInt32 = 0

    public init(peer: Peer, capacity: Int = 4096) {
        self.peer = peer
        self.capacity = max(1, capacity)
    }

    /// Accepts `id` with `seqNo` (remembering both) or says why not, at server-corrected time `now`.
    /// `checkTime: false` skips only the time window — for a notification that may carry the peer's own clock
    /// (`bad_msg_notification` 16/17); parity, duplicates and seq_no are still checked.
    public mutating func accept(_ id: Int64, seqNo: Int32, now: Double, checkTime: Bool = true) -> Rejection? {
        switch peer {
        case .server where id & 1 != 1: return .wrongParity
        case .client where id & 3 != 0: return .wrongParity
        default: break
        }
        let time = MessageIdGenerator.time(of: id)
        if checkTime {
            if time < now - Self.maximumAge { return .tooOld }
            if time > now + Self.maximumLead { return .tooNew }
        }
        if id <= floor { return .duplicate }
        let index = insertionIndex(of: id)
        if index < sorted.count, sorted[index].id == id { return .duplicate }
        // In 64 bits: the peer chooses seq_no, and Int32.max + 1 must be a refusal, not a trap.
        if index > start, sorted[index - 1].sequence == sequence {
            let before = Int64(sorted[index - 1].seqNo)
            if Int64(seqNo) < before + (before & 1) { return .seqNoTooLow }
        }
        if index < sorted.count, sorted[index].sequence == sequence {
            let after = Int64(sorted[index].seqNo)
            if after < Int64(seqNo) + Int64(seqNo & 1) { return .seqNoTooHigh }
        }
        let entry = Entry(id: id, seqNo: seqNo, sequence: sequence)
        // Rising ids (the usual case) append: `insert(at: count)` goes through `replaceSubrange`, which a profile showed.
        if index == sorted.count { sorted.append(entry) } else { sorted.insert(entry, at: index) }
        var expired = start
        while expired < sorted.count - 1, MessageIdGenerator.time(of: sorted[expired].id) < now - Self.maximumAge {
            expired += 1
        }
        if expired > start {
            // Ids that left the window are refused as too old; the floor also refuses them where the time check is
            // skipped.
            floor = max(floor, sorted[expired - 1].id)
            start = expired
        }
        if sorted.count - start > capacity {
            floor = max(floor, sorted[start].id)
            start += 1
        }
        if start >= 64, start * 2 >= sorted.count {
            sorted.removeFirst(start)
            start = 0
        }
        return nil
    }

    /// The peer started its session afresh and counts seq_nos from 0 again (`new_session_created`): the seq_nos
    /// remembered so far are not compared with later ones; their ids are still refused as duplicates.
    public mutating func startNewSequence() {
        sequence &+= 1
    }

    /// Whether `id` was accepted and is still remembered.
    public func hasSeen(_ id: Int64) -> Bool {
        let index = insertionIndex(of: id)
        return index < sorted.count && sorted[index].id == id
    }

    /// How many ids are remembered (at most `capacity`).
    public var count: Int { sorted.count - start }

    private func insertionIndex(of id: Int64) -> Int {
        var low = start
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
