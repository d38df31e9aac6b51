import Hashing
import Testing

/// Telegram's list hash (core.telegram.org "Pagination in the API": `hash ^= hash >> 21; hash ^= hash << 35;
/// hash ^= hash >> 4; hash += id`, unsigned 64-bit). The expected values were computed from that formula on its own,
/// outside this code, with Python's unbounded integers masked to 64 bits.
@Suite struct PaginationHashTests {
    @Test func knownAnswers() {
        #expect(PaginationHash().value == 0)
        #expect(PaginationHash.contacts(savedCount: 0, userIds: []) == 0)
        #expect(PaginationHash.contacts(savedCount: 0, userIds: [1]) == 1)
        #expect(PaginationHash.contacts(savedCount: 5, userIds: [2, 3]) == 2_825_829_306_417_482)
        #expect(PaginationHash.contacts(savedCount: 3, userIds: [1000, 2000, 3000]) == 4_778_313_726_179_228_671)
        var negative = PaginationHash()
        negative.combine(Int64(-1))
        #expect(negative.value == -1)
    }

    /// The contacts hash sorts the ids itself: the order they are stored in does not matter, a different set does.
    @Test func idsAreHashedInAscendingOrder() {
        let sorted = PaginationHash.contacts(savedCount: 3, userIds: [1000, 2000, 3000])
        #expect(PaginationHash.contacts(savedCount: 3, userIds: [3000, 1000, 2000]) == sorted)
        #expect(PaginationHash.contacts(savedCount: 3, userIds: [1000, 2000]) != sorted)
        #expect(PaginationHash.contacts(savedCount: 4, userIds: [1000, 2000, 3000]) != sorted)
    }
}
