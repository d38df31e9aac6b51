import ChatHistory
import Postbox
import SignalTesting
import SwiftSignalKit
import Testing

/// A chat's newest 44 messages as a live Postbox history view, the way a chat screen reads them: every emission
/// recorded, the first one waited for (5 s). `entries()` is what the renderers draw from the latest emission.
struct LiveChatView {
    let recorder: EventRecorder<MessageHistoryView, NoError>

    init(_ postbox: Postbox, chat: PeerId) throws {
        recorder = EventRecorder(
            postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 44))
        try #require(recorder.waitForEvents(1, seconds: 5), "the chat's history view did not emit")
    }

    /// The latest emission's entries, without an unread separator.
    func entries() throws -> [ChatHistoryEntry] {
        ChatHistoryEntries.make(from: try #require(recorder.values.last), unreadSeparator: false)
    }
}
