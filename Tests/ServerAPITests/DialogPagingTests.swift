import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// `messages.getDialogs` paging with each of the offsets a client may pass.
@Suite struct DialogPagingTests {
    struct Page {
        let peers: [Int64]
        let lastDate: Int32
        let lastId: Int32
        let isSlice: Bool
    }

    static func page(_ dialogs: Api.messages.Dialogs) throws -> Page {
        let (list, messages, isSlice): ([Api.Dialog], [Api.Message], Bool)
        switch dialogs {
        case .dialogs(let d): (list, messages, isSlice) = (d.dialogs, d.messages, false)
        case .dialogsSlice(let d): (list, messages, isSlice) = (d.dialogs, d.messages, true)
        case .dialogsNotModified: throw ServerBackendTests.Failure(response: .notImplemented)
        }
        let peers = list.compactMap { dialog -> Int64? in
            if case .dialog(let d) = dialog, case .peerUser(let user) = d.peer { return user.userId }
            return nil
        }
        let last = try #require(list.last.flatMap { dialog -> Int32? in if case .dialog(let d) = dialog { return d.topMessage }; return nil })
        let date = try #require(messages.compactMap { message -> Int32? in
            if case .message(let m) = message, m.id == last { return m.date }
            return nil
        }.first)
        return Page(peers: peers, lastDate: date, lastId: last, isSlice: isSlice)
    }

    @Test func everyOffsetWalksTheListOnceNewestFirst() async throws {
        let clock = FloodControlTests.Clock()
        let harness = try ServerBackendTests.Harness(clock: { clock.now })
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        var friends: [(id: Int64, accessHash: Int64)] = []
        for n in 0..<5 {
            friends.append(try await harness.signUp("999662001\(n)", name: "F\(n)", key: Int64(10 + n), dc: 2))
        }
        // Ann writes to each friend, a second apart, oldest first: the newest dialog is the last friend's.
        for (n, friend) in friends.enumerated() {
            clock.advance(1)
            let peer = Api.InputPeer.inputPeerUser(.init(userId: friend.id, accessHash: friend.accessHash))
            let response = await harness.call(
                Api.functions.messages.sendMessage(peer: peer, message: "hi \(n)", randomId: Int64(n + 1)), key: 1, dc: 2)
            #expect(ServerBackendTests.error(response) == nil)
        }
        let expected = friends.reversed().map(\.id)
        func dialogs(offsetDate: Int32 = 0, offsetId: Int32 = 0, offsetPeer: Api.InputPeer = .inputPeerEmpty) async throws -> Page {
            try Self.page(try await harness.result(
                Api.functions.messages.getDialogs(
                    offsetDate: offsetDate, offsetId: offsetId, offsetPeer: offsetPeer, limit: 2, hash: 0),
                as: Api.messages.Dialogs.self, key: 1, dc: 2))
        }
        let first = try await dialogs()
        #expect(first.peers == Array(expected[0..<2]))
        #expect(first.isSlice)
        // Telethon's iter_dialogs: all three offsets from the page before.
        var seen = first.peers
        var last = first
        while seen.count < expected.count {
            let friend = try #require(friends.first { $0.id == seen.last })
            last = try await dialogs(
                offsetDate: last.lastDate, offsetId: last.lastId,
                offsetPeer: .inputPeerUser(.init(userId: friend.id, accessHash: friend.accessHash)))
            #expect(!last.peers.isEmpty)
            seen += last.peers
        }
        #expect(seen == expected)
        // The date alone, and the peer alone, continue after the same dialog.
        let byDate = try await dialogs(offsetDate: first.lastDate)
        #expect(byDate.peers == Array(expected[2..<4]))
        let second = try #require(friends.first { $0.id == first.peers.last })
        let byPeer = try await dialogs(offsetPeer: .inputPeerUser(.init(userId: second.id, accessHash: second.accessHash)))
        #expect(byPeer.peers == Array(expected[2..<4]))
    }
}
