import ChatTerminal
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing

/// The interactive client names a forward's first author, who is no member of the chat, from the `.peerNames` the
/// shell sends with each history view ("Forwarded from Zoe"), and says "Unknown" without it.
@Suite struct ChatTerminalForwardTests {
    @Test func aForwardNamesItsFirstAuthor() throws {
        let store = try ChatTerminalStateTests.Store()
        let zoe = PeerId.user(77)
        var forwarded = ChatTerminalStateTests.message(1, text: "the plan")
        forwarded.attributes = [ForwardSourceInfoAttribute(authorId: zoe, date: 1_795_000_000)]
        try store.add([forwarded])
        var state = ChatTerminalStateTests.state()
        let history = try store.openBobsChat(&state) { $0.entries.count == 1 }
        defer { history.dispose() }
        #expect(
            state.screen.plainLines.contains { $0.contains("Forwarded from Unknown") }, "\(state.screen.plainLines)")
        ChatTerminalStateTests.run(&state, [.peerNames([zoe: "Zoe"]), .history(try store.latest(history))])
        #expect(state.screen.plainLines.contains { $0.contains("Forwarded from Zoe") }, "\(state.screen.plainLines)")
    }
}
