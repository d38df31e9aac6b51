import ChatHistory
import ListView
import MergeLists
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import Testing

/// An entry as a list row of fixed height (the layout itself is TextLayout's work).
struct EntryRow: ListViewItem {
    let entry: ChatHistoryEntry
    var stableId: ChatHistoryEntryId { entry.stableId }
    var layoutKey: String { "\(entry)" }
    var approximateHeight: Int { 40 }
    func merges(with other: EntryRow) -> Bool { false }
    func layout(width: Int, neighbours: ListViewNeighbours) -> ListViewItemLayout { ListViewItemLayout(height: 40) }
}

/// Two views of a real Postbox chat, before and after messages arrive, one is edited and one deleted: the transition
/// turns the first list into the second in the list's inverted order, a ListView applying it shows the second, and
/// the list goes to the bottom for the first view and for our own new message only.
@Suite struct ChatHistoryTransitionTests {
    @Test func aTransitionTurnsOneViewIntoTheNextInTheInvertedList() throws {
        registerSyncCoreTypes()
        let directory = TemporaryDirectory(prefix: "chat-transition")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let chat = ChatHistoryEntriesTests.chat
        let start: Int32 = 1_700_000_000
        try postbox.transactionSync { tx in
            try tx.addMessages((1...20).map { ChatHistoryEntriesTests.message(Int32($0), at: start + Int32($0) * 60, incoming: $0 % 2 == 0, text: "m\($0)") })
        }
        let recorder = EventRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 44))
        #expect(recorder.waitForEvents(1, seconds: 5))
        let first = ChatHistoryEntries.make(from: try #require(recorder.values.last))
        let initial = ChatHistoryTransition.make(from: [], to: first, reason: .initial)
        #expect(initial.scrollToBottom && initial.changes.inserts.count == first.count)

        // Another message arrives, one is edited, one deleted.
        try postbox.transactionSync { tx in
            try tx.addMessages([ChatHistoryEntriesTests.message(21, at: start + 21 * 60, incoming: true, text: "m21")])
            try tx.updateMessage(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: 5)) { old in
                var edited = old.toStoreMessage()
                edited.text = "m5, edited"
                return edited
            }
            try tx.deleteMessages([MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: 9)])
        }
        #expect(recorder.waitForEvents(2, seconds: 5))
        let second = ChatHistoryEntries.make(from: try #require(recorder.values.last))
        let transition = ChatHistoryTransition.make(from: first, to: second, reason: .interactiveChanges)
        #expect(transition.changes.applied(to: Array(first.reversed())) == Array(second.reversed()))
        #expect(transition.changes.deleteIndices.count == 1 && transition.changes.inserts.map(\.index) == [0])
        #expect(transition.changes.updates.map { $0.item.messages.first?.text } == ["m5, edited"])
        #expect(!transition.scrollToBottom, "an incoming message does not move a reader who scrolled away")

        // A ListView applying both shows the second view, newest at index 0.
        let scheduler = VirtualTimeScheduler()
        let list = ListView<EntryRow>(
            width: 320, viewportHeight: 400, deliverQueue: scheduler.makeQueue(), layoutQueue: scheduler.makeQueue())
        list.enqueue(initial.listTransaction { EntryRow(entry: $0) })
        list.enqueue(transition.listTransaction { EntryRow(entry: $0) })
        _ = scheduler.run()
        #expect(list.snapshot().state.stableIds == second.reversed().map(\.stableId))

        // Our own message at the bottom takes the reader there.
        try postbox.transactionSync { tx in try tx.addMessages([ChatHistoryEntriesTests.message(22, at: start + 22 * 60, text: "mine")]) }
        #expect(recorder.waitForEvents(3, seconds: 5))
        let third = ChatHistoryEntries.make(from: try #require(recorder.values.last))
        #expect(ChatHistoryTransition.make(from: second, to: third, reason: .interactiveChanges).scrollToBottom)
    }
}
