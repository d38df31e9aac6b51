import ChatHistory
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramClient
import Testing

@testable import ChatTerminal

/// Muted chats in the interactive client: the chats `Account.peerNotificationSettings` says are muted (`.muted`) show
/// `🔇` after their name in the list; the others do not; unmuting takes it away.
@Suite struct ChatTerminalMuteTests {
    typealias Base = ChatTerminalStateTests

    @Test func aMutedChatShowsTheMutedSpeaker() throws {
        let store = try Base.Store()
        try store.add([Base.message(1, text: "hello")])
        try store.add([Base.message(1, in: Base.cat, at: 1_795_000_150, incoming: false, text: "meow")])
        let list = EventRecorder(store.postbox.tailChatListView(count: 50))
        defer { list.dispose() }
        var state = Base.state()
        Base.run(&state, [.chatList(try store.latest(list))])
        #expect(!state.screen.plainLines.contains { $0.contains("🔇") })
        Base.run(&state, [.muted([Base.bob])])
        let bobRow = try #require(state.screen.plainLines.first { $0.contains("Bob") })
        #expect(bobRow.contains("🔇"), "\(bobRow)")
        #expect(!(state.screen.plainLines.first { $0.contains("Cat") } ?? "").contains("🔇"))
        Base.run(&state, [.muted([])])
        #expect(!state.screen.plainLines.contains { $0.contains("🔇") })
    }
}
