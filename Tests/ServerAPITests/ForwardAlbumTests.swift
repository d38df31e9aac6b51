@testable import ServerAPI
import Testing

/// Forwarded albums (core.telegram.org/api/files "Albums"): the copies of one album share one new `grouped_id` per
/// forward, never the original's, so the same album forwarded twice into a chat is two albums; messages outside any
/// album stay outside.
@Suite struct ForwardAlbumTests {
    @Test func eachForwardMakesNewAlbumsOfTheOriginalOnes() {
        func outgoing(_ group: Int64?) -> ServerBackend.Outgoing {
            ServerBackend.Outgoing(text: "", randomId: 1, groupedId: group)
        }
        var next: Int64 = 100
        let newId = { () -> Int64 in
            next += 1
            return next
        }
        let messages = [outgoing(7), outgoing(7), outgoing(nil), outgoing(9), outgoing(7)]
        let first = ServerBackend.regrouped(messages, newId: newId).map(\.groupedId)
        #expect(first == [101, 101, nil, 102, 101])
        let second = ServerBackend.regrouped(messages, newId: newId).map(\.groupedId)
        #expect(second == [103, 103, nil, 104, 103], "a second forward of the same album is an album of its own")
    }
}
