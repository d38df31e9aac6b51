import Dispatch
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import Testing

/// The NotificationService case: another process (postbox-tool add-message) writes to the Postbox this process has
/// views open on. The views must notice within 100 ms, through the inotify wake-up, and only the affected ones reload.
@Suite("Live views across processes")
struct CrossProcessViewTests {
    /// Runs `postbox-tool add-message` and returns the monotonic time its write transaction started.
    func addMessage(account: String, peer: Int64, id: Int32) throws -> UInt64 {
        let (status, output, error) = try runTool(
            ["add-message", "--path", account, "--peer", "\(peer)", "--id", "\(id)", "--text", "from the extension",
             "--incoming"],
            environment: ["POSTBOX_KEY": testKeyHex])
        #expect(status == 0, "add-message failed: \(error)")
        let committed = output.split(separator: " ").last.flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return try #require(committed, "no commit time in: \(output)")
    }

    @Test("a second process's writes reach the affected views within 100 ms; other views stay quiet")
    func secondProcessWrites() throws {
        let (postbox, directory) = try makePostbox()
        let account = directory.path + "/account-1"
        let chat = peer(1)
        let quiet = peer(2)
        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: chat, name: "chat 1"), TestPeer(id: quiet, name: "chat 2")])
            try tx.addMessages((1...20).map { message(chat, $0) } + (1...20).map { message(quiet, $0) })
        }
        let history = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 10))
        let quietHistory = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: quiet, anchor: .upperBound, count: 10))
        let chatList = ViewRecorder(postbox.tailChatListView(count: 10))
        let quietPeer = ViewRecorder(postbox.peerView(id: quiet))
        try postbox.drainQueue()
        let reloadsBefore = postbox.viewStatistics().externalReloads

        var latencies: [Double] = []
        for round in 1...5 {
            let id = Int32(100 + round)
            let committed = try addMessage(account: account, peer: 1, id: id)
            #expect(history.wait(forCount: 1 + round, seconds: 5), "round \(round): the history view did not update")
            #expect(chatList.wait(forCount: 1 + round, seconds: 5), "round \(round): the chat list did not update")
            #expect(history.last?.entries.last?.message.id.id == id)
            #expect(history.last?.entries.last?.message.text == "from the extension")
            #expect(chatList.last?.entries.first?.peerId == chat)
            #expect(chatList.last?.entries.first?.unreadCount == Int32(round))
            if let arrived = history.lastTime {
                latencies.append(Double(Int64(arrived) - Int64(committed)) / 1e6)
            }
        }
        // Only the two affected views reloaded, once per write; the others emitted nothing.
        #expect(postbox.viewStatistics().externalReloads - reloadsBefore == 10)
        #expect(quietHistory.count == 1)
        #expect(quietPeer.count == 1)
        // This process writes again: its own transaction sees the other process's state.
        try postbox.transactionSync { tx in try tx.addMessages([message(chat, 200)]) }
        #expect(history.last?.entries.suffix(2).map(\.message.id.id) == [105, 200])

        let sorted = latencies.sorted()
        let median = sorted[sorted.count / 2]
        print("cross-process write-to-emit latency (ms):", latencies.map { String(format: "%.2f", $0) })
        #expect(median <= 100, "median latency \(median) ms")
        #expect(sorted.allSatisfy { $0 < 1000 })
        history.dispose()
        quietHistory.dispose()
        chatList.dispose()
        quietPeer.dispose()
        _ = directory
    }
}
