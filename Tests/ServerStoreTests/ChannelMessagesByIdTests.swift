import Foundation
import ServerStore
import Testing

/// `channelMessagesById`, what a channel difference reads its messages with: a dense run of ids in one range query,
/// scattered ids one by one — the same messages either way, only those of that channel, missing ones left out.
@Suite struct ChannelMessagesByIdTests {
    @Test func denseAndScatteredIdsReadTheSameMessages() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            for channel in [Int64(10), 20] {
                try tx.insert(ChannelRecord(id: channel, title: "C", creator: 1, date: 1000, broadcast: true))
                for id in Int64(1)...300 where id % 7 != 0 {
                    try tx.insert(
                        ChannelMessageRecord(
                            channelId: channel, id: id, fromId: 1, post: true, date: 1000, text: "\(channel)-\(id)"))
                }
            }
        }
        let dense = Array(Int64(101)...200)
        let scattered: [Int64] = [1, 150, 299, 300, 14]
        let (byRange, oneByOne, sparse, none) = try store.read { tx in
            (
                try tx.channelMessagesById(channelId: 10, ids: dense),
                try tx.channelMessages(channelId: 10, ids: dense),
                try tx.channelMessagesById(channelId: 10, ids: scattered),
                try tx.channelMessagesById(channelId: 10, ids: [])
            )
        }
        // Multiples of 7 were never stored: left out, as the per-id read leaves them out.
        #expect(byRange.count == dense.filter { $0 % 7 != 0 }.count)
        #expect(byRange == Dictionary(uniqueKeysWithValues: oneByOne.map { ($0.id, $0) }))
        #expect(byRange.values.allSatisfy { $0.channelId == 10 && $0.text == "10-\($0.id)" })
        #expect(Set(sparse.keys) == [1, 150, 299, 300])
        #expect(none.isEmpty)
    }
}
