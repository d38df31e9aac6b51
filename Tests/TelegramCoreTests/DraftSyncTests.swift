import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Drafts across devices with Telethon 1.45 signed in to the same account on a real tg-server: Telethon's
/// `messages.saveDraft` reaches our Postbox as `updateDraftMessage` (`ChatInputStates`, what the chat list shows);
/// our `Account.saveDraft` reaches Telethon pushed and in `messages.getAllDrafts`; our message to the chat clears it
/// on Telethon's side (`draftMessageEmpty`, no `dialog.draft`).
@Suite(.serialized) struct DraftSyncTests {
    struct Saved: Decodable {
        let user_id: Int64
        let saved: String
    }

    struct Seen: Decodable {
        let seen: String
        let all_drafts: [String]
    }

    struct Cleared: Decodable {
        let cleared: Bool
        let dialog_draft: String?
    }

    @Test func aDraftTravelsBetweenTelethonAndUs() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622731", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622732", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622732", name: "Ben", to: ann)
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "draft_peer.py", ["--phone", "9996622731", "--target-phone", "9996622732", "--wait", "30"])
        let saved = try JSONDecoder().decode(Saved.self, from: Data(firstLine.utf8))
        #expect(saved.user_id == ann.peerId.id.rawValue, "Telethon is Ann's other device")

        // Telethon's draft lands here.
        try await AccountIntegrationTests.wait("Telethon's draft stored", timeout: 30) {
            ann.draft(ben.peerId)?.text == "from telethon"
        }

        // Ours reaches Telethon.
        try await ann.saveDraft(ben.peerId, text: "from tg", entities: [MessageTextEntity(range: 0..<4, type: .bold)])
        #expect(ann.draft(ben.peerId)?.text == "from tg", "stored at once")
        let twoLines = await peer.waitForOutputOffPool(timeout: 60) {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").count >= 2
        }
        let lines = String(decoding: peer.output, as: UTF8.self).split(separator: "\n")
        guard twoLines, lines.count >= 2 else {
            let result = await peer.waitOffPool(timeout: 5)
            Issue.record("Telethon stopped early: \(result.output) \(result.errorOutput.suffix(3000))")
            return
        }
        let seen = try JSONDecoder().decode(Seen.self, from: Data(lines[1].utf8))
        #expect(seen.seen == "from tg" && seen.all_drafts == ["from tg"])

        // Ann sends to Ben: the server clears the draft, Telethon sees it go.
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: ben.peerId,
                messages: [EnqueueMessage(text: "sent instead")], now: Int32(Date().timeIntervalSince1970))
        }
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(
            Cleared.self, from: Data(try #require(result.output.split(separator: "\n").last).utf8))
        #expect(report.cleared && report.dialog_draft == nil, "\(result.output)")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann, ben])
    }
}
