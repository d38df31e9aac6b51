import Foundation
import Postbox
import PostboxTesting
import SwiftSignalKit
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Read receipts both ways with Telethon 1.45 on the other side of a real tg-server: our message, read by Telethon
/// (`send_read_acknowledge`), moves our Postbox's outgoing read mark (`updateReadHistoryOutbox`) and the history
/// view's entry becomes read (ChatRender's ✓✓); our `Account.markRead` of Telethon's message fires Telethon's
/// `events.MessageRead(inbox=False)`; Telethon's voice note arrives unplayed and our `Account.markListened`
/// (`messages.readMessageContents`) reaches Telethon as `updateReadMessagesContents`.
@Suite(.serialized) struct ReadReceiptTests {
    struct Hello: Decodable {
        let user_id: Int64
        let hi: Int32
    }

    @Test func telethonReadsOurMessageAndSeesOursReadBack() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622711", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "read_peer.py",
            ["--phone", "9996622712", "--target-phone", "9996622711", "--wait", "30"])
        let hello = try JSONDecoder().decode(Hello.self, from: Data(firstLine.utf8))
        let rita = PeerId.user(hello.user_id)
        try await AccountIntegrationTests.wait("Rita's hi stored") {
            try AccountIntegrationTests.storedMessages(ann, with: rita).contains { $0.id.id == hello.hi }
        }

        // The history view Ann's chat screen would draw, followed live.
        let latest = LockedValue<MessageHistoryView?>(nil)
        let watching = ann.historyView(peerId: rita).start(next: { view in latest.withLock { $0 = view } })
        defer { watching.dispose() }

        // Ann writes; Telethon reads it; Ann's outgoing read mark moves past it and the view shows it read.
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: rita, messages: [EnqueueMessage(text: "read me")],
                now: Int32(Date().timeIntervalSince1970))
        }
        var sent: MessageId?
        try await AccountIntegrationTests.wait("Ann's message sent", timeout: 30) {
            sent = try AccountIntegrationTests.storedMessages(ann, with: rita).first {
                $0.text == "read me" && $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.unsent)
            }?.id
            return sent != nil
        }
        let sentId = try #require(sent)
        try await AccountIntegrationTests.wait("Ann's outgoing read mark past her message", timeout: 30) {
            let state = try ann.postbox.readTransactionSync { try $0.getCombinedPeerReadState(rita) }
            return (state?.states[Namespaces.Message.cloud]?.maxOutgoingReadId ?? 0) >= sentId.id
        }
        try await AccountIntegrationTests.wait("the history view shows it read") {
            latest.withLock { $0 }?.entries.first { $0.message.id == sentId }?.isRead == true
        }
        let view = try #require(latest.withLock { $0 })
        let entry = try #require(view.entries.first { $0.message.id == sentId })
        #expect(!entry.message.flags.contains(.incoming) && entry.isRead, "ours, read: ChatRender draws ✓✓")
        let hi = try #require(view.entries.first { $0.message.id.id == hello.hi })
        #expect(hi.message.flags.contains(.incoming) && !hi.isRead, "Rita's hi is still unread here")

        // Ann reads Rita's hi: Telethon's events.MessageRead(inbox=False) fires with it.
        try await ann.markRead(peerId: rita, upTo: hello.hi)
        struct Read: Decodable {
            let read: Int32
            let text: String
        }
        struct OutboxRead: Decodable { let outbox_read_max_id: Int32 }
        struct Voice: Decodable {
            let voice: Int32
            let media_unread: Bool
        }
        struct Listened: Decodable {
            let listened: [Int32]
            let media_unread: Bool
        }
        let fourLines = await peer.waitForOutputOffPool(timeout: 60) {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").count >= 4
        }
        let lines = String(decoding: peer.output, as: UTF8.self).split(separator: "\n")
        guard fourLines, lines.count >= 4 else {
            let result = await peer.waitOffPool(timeout: 5)
            Issue.record("Telethon stopped early: \(result.output) \(result.errorOutput.suffix(3000))")
            return
        }
        let read = try JSONDecoder().decode(Read.self, from: Data(lines[1].utf8))
        #expect(read.read == sentId.id && read.text == "read me")
        #expect(try JSONDecoder().decode(OutboxRead.self, from: Data(lines[2].utf8)).outbox_read_max_id == hello.hi)
        try await AccountIntegrationTests.wait("Rita's hi read here") {
            latest.withLock { $0 }?.entries.first { $0.message.id.id == hello.hi }?.isRead == true
        }

        // Rita's voice note arrives unplayed; Ann listens (messages.readMessageContents): played here at once, and
        // Telethon gets updateReadMessagesContents naming it, its copy no longer media_unread.
        let voice = try JSONDecoder().decode(Voice.self, from: Data(lines[3].utf8))
        #expect(voice.media_unread, "a voice note is sent unplayed")
        let voiceId = MessageId(peerId: rita, namespace: Namespaces.Message.cloud, id: voice.voice)
        try await AccountIntegrationTests.wait("Rita's voice note stored, unplayed") {
            try ann.postbox.readTransactionSync { try $0.getMessage(voiceId) }?.isMediaUnread == true
        }
        try await ann.markListened(voiceId)
        let played = try ann.postbox.readTransactionSync { try $0.getMessage(voiceId) }
        #expect(played?.isMediaUnread == false, "played here at once")
        #expect(
            played?.attributes.contains { ($0 as? ConsumableContentMessageAttribute)?.consumed == true } == true)
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(
            Listened.self, from: Data(try #require(result.output.split(separator: "\n").last).utf8))
        #expect(report.listened == [voice.voice] && !report.media_unread, "\(result.output)")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann])
    }
}
