import ChatRender
import Postbox
import SignalTesting
import SyncCore
import Testing

@testable import ChatTerminal

/// The pinned-message bar in the interactive client (Telegram-iOS `ChatPinnedMessageTitlePanelNode`): an open chat
/// whose history holds a message tagged `.pinned` shows `📌 Pinned Message: text` and a rule under the title, over a
/// history pane two rows shorter; the newest pinned message wins; a chat without one shows none.
@Suite struct ChatTerminalPinnedBarTests {
    typealias Base = ChatTerminalStateTests

    @Test func anOpenChatShowsItsNewestPinnedMessageOverTheHistory() throws {
        let plain = try Base.Store()
        try plain.add((1...4).map { Base.message($0, text: "message \($0)") })
        var state = Base.state()
        let plainHistory = try plain.openBobsChat(&state) { $0.entries.count == 4 }
        plainHistory.dispose()
        #expect(!state.screen.plainLines.contains { $0.contains("📌") })
        #expect(state.screen.plainLines[13].hasPrefix("╰"), "\(state.screen.plainLines)")

        // Messages 2 and 3 are pinned: the bar shows the newer, and the screen keeps its 16 lines.
        let store = try Base.Store()
        var messages = [
            Base.message(1, text: "message 1"), Base.message(2, text: "the rules"),
            Base.message(3, text: "meeting at 10"), Base.message(4, text: "message 4"),
        ]
        messages[1].tags.insert(.pinned)
        messages[2].tags.insert(.pinned)
        try store.add(messages)
        state = Base.state()
        let history = try store.openBobsChat(&state) { $0.entries.count == 4 }
        defer { history.dispose() }
        let screen = state.screen.plainLines
        #expect(screen.count == 16)
        #expect(screen[1] == "📌 \(PinnedMessageBar.title): meeting at 10", "\(screen)")
        #expect(screen[2].hasPrefix("───") && screen[3...].contains { $0.contains("message 4") }, "\(screen)")
        #expect(screen[13].hasPrefix("╰"), "the newest bubble still ends on the pane's last row: \(screen)")
    }
}
