import Foundation
import ServerStore
import Testing

/// The saved-GIF list in the store (migration 25): the latest first, a GIF saved again moved to the front, the oldest
/// dropped past the limit, each account's list its own.
@Suite struct SavedGifStoreTests {
    @Test func theListIsOrderedAndBounded() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            for id: Int64 in 1...5 { try tx.saveGif(owner: 7, documentId: id, limit: 3) }
        }
        #expect(try store.read { tx in try tx.savedGifs(owner: 7, limit: 10) } == [5, 4, 3], "the oldest two dropped")
        try store.write { tx in try tx.saveGif(owner: 7, documentId: 3, limit: 3) }
        #expect(try store.read { tx in try tx.savedGifs(owner: 7, limit: 10) } == [3, 5, 4])
        #expect(try store.write { tx in try tx.unsaveGif(owner: 7, documentId: 5) })
        #expect(try !store.write { tx in try tx.unsaveGif(owner: 7, documentId: 5) }, "not there any more")
        #expect(try store.read { tx in try tx.savedGifs(owner: 7, limit: 1) } == [3])
        #expect(try store.read { tx in try tx.savedGifs(owner: 8, limit: 10) }.isEmpty)
    }
}
