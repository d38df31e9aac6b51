import ChatHistory
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramClient
import Testing

@testable import ChatTerminal

/// Drafts in the interactive client: a chat left with a line typed saves it as the chat's draft (`.saveDraft`) and the
/// chat list shows `Draft: …` instead of the last message; opening the chat puts it back on the compose line with its
/// reply; leaving with the line emptied clears it; sending clears it; a draft from another device (`.drafts`) shows.
@Suite struct ChatTerminalDraftTests {
    typealias Base = ChatTerminalStateTests

    @Test func aLineTypedStaysAsTheChatsDraft() throws {
        let store = try Base.Store()
        try store.add([Base.message(1, text: "hello"), Base.message(2, text: "are you there?")])
        try store.add([Base.message(1, in: Base.cat, at: 1_795_000_150, incoming: false, text: "meow")])
        let list = EventRecorder(store.postbox.tailChatListView(count: 50))
        defer { list.dispose() }
        var state = Base.state()
        Base.run(&state, [.chatList(try store.latest(list)), .key(.down)])
        let history = try store.openBobsChat(&state)
        defer { history.dispose() }
        #expect(state.compose.isEmpty)

        // Type, reply to 2, leave: the draft is saved and the list shows it.
        Base.run(&state, Base.typed("/reply 2") + [.key(.enter)])
        #expect(state.replyTo == 2)
        Base.run(&state, Base.typed("half a thought"))
        let left = Base.run(&state, [.key(.escape)])
        #expect(left == [.saveDraft(Base.bob, ChatTerminalDraft(text: "half a thought", replyTo: 2)), .closeHistory])
        #expect(state.mode == .chatList && state.compose.isEmpty)
        Base.run(&state, [.chatList(try store.latest(list))])
        let bobRow = try #require(state.screen.plainLines.first { $0.contains("Bob") })
        #expect(bobRow.contains("Draft: half a thought") && !bobRow.contains("are you there?"), "\(bobRow)")
        #expect(!(state.screen.plainLines.first { $0.contains("Cat") } ?? "").contains("Draft"))

        // Opening the chat again restores the line and its reply.
        #expect(Base.run(&state, [.key(.enter)]).first == .openHistory(Base.bob, anchor: .upperBound))
        #expect(state.compose == "half a thought" && state.replyTo == 2)
        // Emptied and left: the draft is cleared.
        Base.run(&state, [.key(.ctrl("u"))])
        #expect(Base.run(&state, [.key(.escape)]).isEmpty && state.replyTo == nil, "a reply alone is dropped first")
        #expect(Base.run(&state, [.key(.escape)]) == [.saveDraft(Base.bob, nil), .closeHistory])
        #expect(!(state.screen.plainLines.first { $0.contains("Bob") } ?? "").contains("Draft"))

        // A draft saved on another device shows in the list and opens with the chat; sending clears it.
        Base.run(&state, [.drafts([Base.bob: ChatTerminalDraft(text: "from the phone")])])
        #expect((state.screen.plainLines.first { $0.contains("Bob") } ?? "").contains("Draft: from the phone"))
        Base.run(&state, [.key(.enter)])
        #expect(state.compose == "from the phone" && state.replyTo == nil)
        let sent = Base.run(&state, [.key(.enter)])
        #expect(
            sent == [.send(.text(markdown: "from the phone", replyTo: nil), to: Base.bob), .saveDraft(Base.bob, nil)])
        #expect(state.drafts.isEmpty)
    }
}
