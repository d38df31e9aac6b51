/// Telegram's 64-bit hash for caching lists (core.telegram.org "Pagination in the API", hash generation; Telegram-iOS
/// `combineInt64Hash` / `finalizeInt64Hash`): a client sends the hash of what it holds and the server answers
/// "not modified" when its own list hashes the same. `contacts.getContacts` hashes the last `saved_count` and then
/// the contacts' user ids in ascending order.
public struct PaginationHash: Sendable, Equatable {
    private var acc: UInt64 = 0

    /// The hash of nothing (0).
    public init() {}

    /// Folds `value` in: `acc ^= acc >> 21; acc ^= acc << 35; acc ^= acc >> 4; acc += value`.
    public mutating func combine(_ value: UInt64) {
        acc ^= acc >> 21
        acc ^= acc << 35
        acc ^= acc >> 4
        acc = acc &+ value
    }

    /// Folds in a signed value by its bit pattern.
    public mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }

    /// The hash as the API's `long`.
    public var value: Int64 { Int64(bitPattern: acc) }

    /// The `contacts.getContacts` hash: `savedCount`, then `userIds` sorted ascending.
    public static func contacts(savedCount: Int32, userIds: some Sequence<Int64>) -> Int64 {
        var hash = PaginationHash()
        hash.combine(Int64(savedCount))
        for id in userIds.sorted() { hash.combine(id) }
        return hash.value
    }
}
