import ChatHistory
import ChatRender
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramClient
import Testing

@testable import ChatTerminal

/// The interactive client's state machine driven by key sequences and live views of a real Postbox: the chat list
/// with unread counts and the connection in the title, a chat following the bottom, scrolled reading that keeps its
/// place, paging at the window's edge and holes, the compose line's messages and commands, search and accounts.
@Suite struct ChatTerminalStateTests {
    static let me = PeerId.user(1)
    static let bob = PeerId.user(42)
    static let cat = PeerId.user(43)

    /// A Postbox with Bob and Cat stored as users.
    final class Store {
        let directory = TemporaryDirectory(prefix: "chat-terminal")
        let postbox: Postbox

        init() throws {
            registerSyncCoreTypes()
            postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
            try postbox.transactionSync { tx in
                try tx.updatePeers([
                    TelegramUser(id: me, accessHash: nil, firstName: "Alice", lastName: nil, username: nil, phone: nil),
                    TelegramUser(id: bob, accessHash: nil, firstName: "Bob", lastName: nil, username: nil, phone: nil),
                    TelegramUser(id: cat, accessHash: nil, firstName: "Cat", lastName: nil, username: nil, phone: nil),
                ])
            }
        }

        deinit { directory.remove() }

        func add(_ messages: [StoreMessage]) throws {
            try postbox.transactionSync { tx in _ = try tx.addMessages(messages) }
        }

        /// The newest value of a live view once `ready` holds (5 s at most).
        func latest<T: Sendable>(
            _ recorder: EventRecorder<T, NoError>, _ ready: (T) -> Bool = { _ in true }
        ) throws -> T {
            for _ in 0..<250 {
                if let value = recorder.values.last, ready(value) { return value }
                _ = recorder.waitForEvents(recorder.values.count + 1, seconds: 0.02)
            }
            return try #require(recorder.values.last.flatMap { ready($0) ? $0 : nil }, "the view did not arrive")
        }

        /// Opens Bob's chat from the chat list in `state` and shows its history once `ready` holds; returns the live
        /// history view's recorder for later windows (the caller disposes it).
        func openBobsChat(
            _ state: inout ChatTerminalState, until ready: (MessageHistoryView) -> Bool = { _ in true }
        ) throws -> EventRecorder<MessageHistoryView, NoError> {
            let history = EventRecorder(
                postbox.aroundMessageHistoryViewForLocation(peerId: bob, anchor: .upperBound, count: 44))
            let list = EventRecorder(postbox.tailChatListView(count: 50))
            defer { list.dispose() }
            do {
                ChatTerminalStateTests.run(
                    &state, [.chatList(try latest(list)), .key(.enter), .history(try latest(history, ready))])
            } catch {
                history.dispose()
                throw error
            }
            return history
        }
    }

    static func message(
        _ id: Int32, in peer: PeerId = bob, at time: Int32? = nil, incoming: Bool = true, text: String
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: peer, namespace: Namespaces.Message.cloud, id: id)),
            timestamp: time ?? 1_795_000_000 + id * 60, flags: incoming ? [.incoming] : [],
            authorId: incoming ? peer : me, text: text)
    }

    static func typed(_ text: String) -> [ChatTerminalEvent] { text.map { .key(.character($0)) } }

    static func state(width: Int = 60, height: Int = 16) -> ChatTerminalState {
        var state = ChatTerminalState(width: width, height: height)
        _ = state.handle(.account(name: "alice", peerId: me, all: ["alice", "bob"]))
        return state
    }

    @discardableResult
    static func run(_ state: inout ChatTerminalState, _ events: [ChatTerminalEvent]) -> [ChatTerminalEffect] {
        events.flatMap { state.handle($0) }
    }

    @Test func keysAreDecodedFromTerminalBytes() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode(Array("hi\r".utf8)) == [.character("h"), .character("i"), .enter])
        #expect(
            decoder.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E, 0x7F, 0x03]) == [
                .up, .pageUp, .pageDown, .backspace, .ctrl("c"),
            ])
        // A sequence and a UTF-8 character split across reads wait for their rest.
        #expect(decoder.decode([0x1B, 0x5B]).isEmpty)
        #expect(decoder.decode([0x42, 0xE1, 0xBB]) == [.down])
        #expect(decoder.decode([0x9F]) == [.character("ở")])
        // A lone ESC is Escape once nothing follows; unknown sequences are dropped, never trapped on.
        #expect(decoder.decode([0x1B]).isEmpty && decoder.hasPendingEscape)
        #expect(decoder.flushEscape() == [.escape])
        #expect(decoder.decode([0x1B, 0x5B, 0x39, 0x39, 0x7A, 0x78, 0xFF]) == [.character("x")])
    }

    @Test func theChatListShowsUnreadCountsAndTheConnectionAndFollowsTheAccount() throws {
        let store = try Store()
        try store.add([Self.message(1, text: "hello"), Self.message(2, text: "are you there?")])
        try store.add([Self.message(1, in: Self.cat, at: 1_795_000_150, incoming: false, text: "meow")])
        let list = EventRecorder(store.postbox.tailChatListView(count: 50))
        defer { list.dispose() }
        var state = Self.state()
        Self.run(&state, [.chatList(try store.latest(list) { $0.entries.count == 2 })])
        var screen = state.screen.plainLines
        #expect(screen.count == 16 && state.screen.lines.allSatisfy { DisplayWidthCheck.columns($0) == 60 })
        #expect(screen[0] == " Chats — alice · connecting")
        #expect(screen[1].hasPrefix("▶ Cat  me: meow"), "\(screen[1])")
        #expect(screen[2].hasPrefix("  Bob (2)  are you there?"), "\(screen[2])")

        Self.run(&state, [.connection(.connectingToProxy)])
        #expect(state.screen.plainLines[0] == " Chats — alice · connecting to proxy")
        Self.run(&state, [.connection(.updating)])
        #expect(state.screen.plainLines[0] == " Chats — alice · updating")
        Self.run(&state, [.connection(.online), .key(.down)])
        screen = state.screen.plainLines
        #expect(screen[0] == " Chats — alice · online")
        #expect(screen[2].hasPrefix("▶ Bob (2)"))

        // A message arriving moves Bob's chat up and counts it, and the selection stays on Bob.
        try store.add([Self.message(3, text: "hello??")])
        Self.run(&state, [.chatList(try store.latest(list) { $0.entries.first?.peerId == Self.bob })])
        screen = state.screen.plainLines
        #expect(screen[1].hasPrefix("▶ Bob (3)  hello??"), "\(screen[1])")
        #expect(screen[2].hasPrefix("  Cat"))
        #expect(Self.run(&state, [.key(.enter)]) == [.openHistory(Self.bob, anchor: .upperBound), .markRead(Self.bob)])
    }

    @Test func aSecretChatIsMarkedInTheListAndTheTitle() throws {
        let store = try Store()
        let secret = PeerId(namespace: Namespaces.Peer.secretChat, id: PeerId.Id(rawValue: 1001))
        try store.add([Self.message(1, text: "hello")])
        try store.add([
            StoreMessage(
                id: .partial(secret, Namespaces.Message.secretIncoming), timestamp: 1_795_000_500, flags: [.incoming],
                authorId: Self.bob, text: "just us")
        ])
        let list = EventRecorder(store.postbox.tailChatListView(count: 50))
        defer { list.dispose() }
        var state = Self.state()
        // The shell names secret chats (they have no stored peer) before the list they belong to.
        Self.run(&state, [.chatNames([secret: "🔒 Bob"]), .chatList(try store.latest(list) { $0.entries.count == 2 })])
        var screen = state.screen.plainLines
        #expect(screen[1].hasPrefix("▶ 🔒 Bob (1)  just us"), "\(screen[1])")
        #expect(screen[2].hasPrefix("  Bob (1)  hello"), "\(screen[2])")
        Self.run(&state, [.key(.enter)])
        screen = state.screen.plainLines
        #expect(screen[0].hasPrefix(" 🔒 Bob — alice"), "\(screen[0])")
        // Typing a message in it tells the other side (the shell throttles); a command does not.
        #expect(Self.run(&state, Self.typed("hi")) == [.typing(secret), .typing(secret)])
        Self.run(&state, [.key(.ctrl("u"))])
        #expect(Self.run(&state, Self.typed("/reply")).isEmpty)
        Self.run(&state, [.key(.ctrl("u"))])
        // The other side typing shows in the title until it stops.
        Self.run(&state, [.typing([secret])])
        #expect(state.screen.plainLines[0].hasPrefix(" 🔒 Bob (typing…) — alice"), "\(state.screen.plainLines[0])")
        Self.run(&state, [.typing([])])
        #expect(state.screen.plainLines[0].hasPrefix(" 🔒 Bob — alice"))
    }

    @Test func aChatFollowsTheBottomAndSendsWhatIsTyped() throws {
        let store = try Store()
        try store.add((1...5).map { Self.message($0, text: "message \($0)") })
        var state = Self.state()
        let history = try store.openBobsChat(&state) { $0.entries.count == 5 }
        defer { history.dispose() }
        var screen = state.screen.plainLines
        #expect(screen[0].hasPrefix(" Bob — alice"))
        #expect(screen.contains { $0.contains("message 5") })
        #expect(screen[13].hasPrefix("╰"), "the newest bubble ends on the pane's last row: \(screen)")
        #expect(screen[15] == ">")

        // A new incoming message shows at the bottom and is marked read.
        try store.add([Self.message(6, text: "**new** one")])
        let effects = Self.run(&state, [.history(try store.latest(history) { $0.entries.count == 6 })])
        #expect(effects == [.markRead(Self.bob)])
        screen = state.screen.plainLines
        #expect(screen[11].contains("**new** one") && screen[13].hasPrefix("╰"), "\(screen)")

        // Typed markdown goes out as one message (each key tells Bob this user is typing: the shell throttles); the
        // line is cleared.
        let sent = Self.run(&state, Self.typed("**hi** there") + [.key(.enter)])
        #expect(
            sent
                == Array(repeating: .typing(Self.bob), count: "**hi** there".count)
                + [.send(.text(markdown: "**hi** there", replyTo: nil), to: Self.bob)])
        // Bob typing shows in the title until it stops.
        Self.run(&state, [.typing([Self.bob])])
        #expect(state.screen.plainLines[0].contains("Bob (typing…)"), "\(state.screen.plainLines[0])")
        Self.run(&state, [.typing([])])
        #expect(!state.screen.plainLines[0].contains("typing"))
        #expect(state.compose.isEmpty && state.screen.plainLines[15] == ">")
        // Bob's presence is in the title when he is not typing (typing wins), and on his row of the chat list.
        Self.run(&state, [.presences([Self.bob: ChatSubtitle(text: "last seen 5 minutes ago")])])
        #expect(
            state.screen.plainLines[0].hasPrefix(" Bob · last seen 5 minutes ago — alice"),
            "\(state.screen.plainLines[0])")
        Self.run(&state, [.typing([Self.bob])])
        #expect(state.screen.plainLines[0].hasPrefix(" Bob (typing…) — alice"), "\(state.screen.plainLines[0])")
        Self.run(&state, [.typing([])])
        // Esc goes back to the list and stops following the history.
        #expect(Self.run(&state, [.key(.escape)]) == [.closeHistory])
        #expect(state.mode == .chatList)
        #expect(
            state.screen.plainLines.contains { $0.hasPrefix("▶ Bob (5) · last seen 5 minutes ago  message 5") },
            "\(state.screen.plainLines)")
    }

    @Test func scrolledUpTheReaderKeepsItsPlaceAndTheWindowPagesAtTheTop() throws {
        let store = try Store()
        try store.add((1...300).map { Self.message($0, text: "m\($0)") })
        let chat = Self.bob
        var state = Self.state()
        let list = EventRecorder(store.postbox.tailChatListView(count: 50))
        defer { list.dispose() }
        Self.run(&state, [.chatList(try store.latest(list))])
        #expect(Self.run(&state, [.key(.enter)]).first == .openHistory(chat, anchor: .upperBound))
        var window = EventRecorder(
            store.postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 44))
        Self.run(&state, [.history(try store.latest(window))])
        #expect(state.screen.plainLines.contains { $0.contains("m300") })

        // Page up: the pane shows older lines and says so.
        Self.run(&state, [.key(.pageUp)])
        #expect(state.history.scrollOffset == 12)
        #expect(state.screen.plainLines[14].contains("scrolled up 12 lines"))
        let before = state.screen.plainLines

        // A message arriving while scrolled up does not move what the reader sees.
        try store.add([Self.message(301, text: "m301")])
        Self.run(&state, [.history(try store.latest(window) { $0.entries.last?.message.id.id == 301 })])
        #expect(state.screen.plainLines[1...13] == before[1...13])

        // Paging up reaches the window's top: a window around its oldest message is asked for, once.
        var paging: [ChatTerminalEffect] = []
        for _ in 0..<40 where paging.isEmpty { paging = Self.run(&state, [.key(.pageUp)]) }
        let oldest = try #require(state.history.entries.flatMap(\.messages).first)
        #expect(paging == [.openHistory(chat, anchor: .index(oldest.index))])
        #expect(Self.run(&state, [.key(.up)]).isEmpty)
        let shown = state.screen.plainLines
        window.dispose()
        window = EventRecorder(
            store.postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .index(oldest.index), count: 44))
        defer { window.dispose() }
        Self.run(&state, [.history(try store.latest(window))])
        // The new window holds older messages, and the same lines are on screen.
        #expect(try #require(state.history.entries.flatMap(\.messages).first).id.id < oldest.id.id)
        #expect(state.screen.plainLines[1...13] == shown[1...13])
        // End goes back to the bottom: the newest window is asked for again.
        #expect(Self.run(&state, [.key(.end)]) == [.openHistory(chat, anchor: .upperBound)])
        #expect(state.history.scrollOffset == 0)
    }

    @Test func aHoleShowsAsLoadingUntilItIsFilled() throws {
        let store = try Store()
        try store.postbox.transactionSync { tx in
            try tx.addHole(peerId: Self.bob, namespace: Namespaces.Message.cloud, range: 1...10)
            _ = try tx.addMessages((11...13).map { Self.message($0, text: "after the hole \($0)") })
        }
        var state = Self.state()
        let history = try store.openBobsChat(&state) { $0.entries.count == 3 }
        defer { history.dispose() }
        #expect(state.history.lines.contains { $0.contains("… loading …") })
        // Above the pane's 13 rows: Home scrolls to it (the hole is fetched by the account, not by a new window).
        #expect(!state.screen.plainLines.contains { $0.contains("… loading …") })
        #expect(Self.run(&state, [.key(.home)]).isEmpty)
        #expect(state.screen.plainLines[1].contains("… loading …"), "\(state.screen.plainLines)")

        // The fetcher fills the hole (as TelegramCore's does): the messages replace the loading row live.
        try store.postbox.transactionSync { tx in
            _ = try tx.addMessages((1...10).map { Self.message($0, text: "before \($0)") })
            try tx.removeHole(peerId: Self.bob, namespace: Namespaces.Message.cloud, range: 1...10)
        }
        Self.run(
            &state, [.history(try store.latest(history) { $0.entries.count == 13 && !$0.holeEarlier }), .key(.end)])
        #expect(!state.history.lines.contains { $0.contains("loading") })
        #expect(state.history.lines.contains { $0.contains("before 1") })
        #expect(state.screen.plainLines.contains { $0.contains("after the hole 13") })
    }

    @Test func saveGifAloneTakesTheNewestGifInTheChatAndNeverASecretChats() throws {
        let store = try Store()
        let gif = TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 77),
            resource: .cloudDocument(datacenterId: 2, fileId: 77, accessHash: 1, fileReference: [], size: 9_000),
            mimeType: "video/mp4", size: 9_000,
            attributes: [
                .animated,
                .video(
                    duration: 2, size: PixelDimensions(width: 240, height: 240), isRoundMessage: false,
                    supportsStreaming: true, noSound: true),
            ])
        var withGif = Self.message(5, text: "")
        withGif.media = [gif]
        try store.add([withGif, Self.message(6, text: "after the GIF")])
        var state = Self.state()
        let history = try store.openBobsChat(&state)
        defer { history.dispose() }
        #expect(Self.run(&state, Self.typed("/savegif") + [.key(.enter)]) == [.saveGif(Self.bob, message: 5)])
        #expect(state.screen.plainLines[14].contains("saving the GIF of 5"))

        let secret = PeerId(namespace: Namespaces.Peer.secretChat, id: PeerId.Id(rawValue: 1001))
        var inSecret = Self.state()
        inSecret.mode = .chat(secret)
        #expect(Self.run(&inSecret, Self.typed("/savegif 3") + [.key(.enter)]).isEmpty)
        #expect(inSecret.notice?.contains("cannot be saved") == true)
    }

    @Test func theComposeLineRunsCommands() throws {
        let store = try Store()
        try store.add([Self.message(7, text: "question?")])
        var state = Self.state()
        let history = try store.openBobsChat(&state)
        defer { history.dispose() }
        let bob = Self.bob

        // /reply alone answers the newest incoming message; the prompt says so and Enter sends the reply.
        #expect(Self.run(&state, Self.typed("/reply") + [.key(.enter)]).isEmpty)
        #expect(state.replyTo == 7 && state.screen.plainLines[15] == "reply 7>")
        #expect(
            Self.run(&state, Self.typed("yes") + [.key(.enter)])
                == [.typing(bob), .typing(bob), .typing(bob), .send(.text(markdown: "yes", replyTo: 7), to: bob)])
        #expect(state.replyTo == nil)
        Self.run(&state, Self.typed("/reply 3") + [.key(.enter)])
        #expect(
            Self.run(&state, Self.typed("/photo /tmp/a.jpg the **lake**") + [.key(.enter)]) == [
                .send(.photo(path: "/tmp/a.jpg", caption: "the **lake**", replyTo: 3), to: bob)
            ])
        #expect(
            Self.run(&state, Self.typed("/file \"/tmp/my notes.txt\"") + [.key(.enter)]) == [
                .send(.file(path: "/tmp/my notes.txt", caption: "", replyTo: nil), to: bob)
            ])
        #expect(
            Self.run(&state, Self.typed("/voice /tmp/v.wav") + [.key(.enter)]) == [
                .send(.voice(path: "/tmp/v.wav", replyTo: nil), to: bob)
            ])
        #expect(
            Self.run(&state, Self.typed("/sticker 2") + [.key(.enter)]) == [
                .send(.sticker("telegraph/2", replyTo: nil), to: bob)
            ])
        // Saved GIFs: /gif N sends the Nth; /savegif ID saves a message's GIF; alone, with no GIF in the chat, it says how.
        #expect(
            Self.run(&state, Self.typed("/gif 2") + [.key(.enter)]) == [.send(.savedGif(2, replyTo: nil), to: bob)])
        #expect(Self.run(&state, Self.typed("/gif first") + [.key(.enter)]).isEmpty)
        #expect(state.screen.plainLines[14].contains("usage: /gif N"))
        #expect(Self.run(&state, Self.typed("/savegif 7") + [.key(.enter)]) == [.saveGif(bob, message: 7)])
        #expect(Self.run(&state, Self.typed("/savegif") + [.key(.enter)]).isEmpty)
        #expect(state.screen.plainLines[14].contains("usage: /savegif ID"))
        #expect(Self.run(&state, Self.typed("/reply x") + [.key(.enter)]).isEmpty)
        #expect(state.screen.plainLines[14].contains("usage: /reply ID"))
        #expect(Self.run(&state, Self.typed("/nope") + [.key(.enter)]).isEmpty)
        #expect(state.screen.plainLines[14].contains("unknown command /nope"))
        // Backspace and Ctrl-U edit the line.
        Self.run(&state, Self.typed("abc") + [.key(.backspace)])
        #expect(state.compose == "ab")
        Self.run(&state, [.key(.ctrl("u"))])
        #expect(state.compose.isEmpty)

        // Accounts: /account NAME, Tab for the next one; an unknown name is refused.
        #expect(Self.run(&state, Self.typed("/account zed") + [.key(.enter)]).isEmpty)
        #expect(Self.run(&state, Self.typed("/account bob") + [.key(.enter)]) == [.switchAccount("bob")])
        #expect(Self.run(&state, [.key(.tab)]) == [.switchAccount("bob")])
        // The switch lands: back to the other account's chat list, the history closed.
        #expect(Self.run(&state, [.account(name: "bob", peerId: Self.bob, all: ["alice", "bob"])]) == [.closeHistory])
        #expect(state.mode == .chatList && state.screen.plainLines[0] == " Chats — bob · connecting")
        #expect(state.chats.isEmpty)

        // Search: the results screen, Enter opens the chat around the message found.
        #expect(Self.run(&state, Self.typed("/search quest") + [.key(.enter)]) == [.search("quest")])
        let found = try #require(try store.latest(history).entries.last).index
        Self.run(
            &state,
            [.searchResults(query: "quest", [ChatTerminalSearchHit(index: found, chatName: "Bob", text: "question?")])])
        #expect(state.screen.plainLines[1] == "▶ Bob: question?")
        #expect(Self.run(&state, [.key(.enter)]) == [.openHistory(bob, anchor: .index(found)), .markRead(bob)])

        // Leaving: /quit and Ctrl-C.
        #expect(Self.run(&state, Self.typed("/quit") + [.key(.enter)]) == [.quit])
        var other = Self.state()
        #expect(Self.run(&other, [.key(.ctrl("c"))]) == [.quit] && other.quitting)
    }

    @Test func aResizeRedrawsAtTheNewWidth() throws {
        let store = try Store()
        try store.add([Self.message(1, text: "a fairly long message that wraps when the terminal is narrow enough")])
        var state = Self.state(width: 100, height: 20)
        let history = try store.openBobsChat(&state)
        defer { history.dispose() }
        let wide = state.history.lines.count
        Self.run(&state, [.resize(width: 30, height: 10)])
        #expect(state.screen.lines.count == 10 && state.screen.lines.allSatisfy { DisplayWidthCheck.columns($0) == 30 })
        #expect(state.history.lines.count > wide)
    }
}

/// Columns of a drawn line (ChatRender's DisplayWidth, escape sequences excluded).
enum DisplayWidthCheck {
    static func columns(_ line: String) -> Int { ChatTerminalState.columns(line) }
}
