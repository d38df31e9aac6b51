import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramCore
import Testing

/// A text's quick ack through tg-server (core.telegram.org/mtproto/mtproto-transports "Quick ack"; Telegram-iOS
/// `applyAcknowledgedMessage`): the local copy is marked as received by the server while it is still unsent, before
/// the answer replaces it with the server's.
@Suite(.serialized) struct QuickAckSendingTests {
    @Test func aTextIsMarkedReceivedByTheServerBeforeItsAnswerReplacesIt() async throws {
        // Over sockets: the loopback network has no transport, so no quick acks.
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622381", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622382", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622382", name: "Ben", to: ann)
        ann.start()
        try await AccountIntegrationTests.wait("Ann's state") { ann.stateManager.hasCaughtUp }

        // Every state the local copy passes through, as the history view shows it: (unsent, acknowledged).
        let seen = LockedValue<[(unsent: Bool, acknowledged: Bool)]>([])
        let view = ann.historyView(peerId: ben.peerId).start(next: { view in
            for entry in view.entries where entry.message.text == "quick" {
                let info = entry.message.attributes.compactMap { $0 as? OutgoingMessageInfoAttribute }.first
                seen.withLock { $0.append((entry.message.flags.contains(.unsent), info?.acknowledged ?? false)) }
            }
        })
        defer { view.dispose() }
        _ = try ann.enqueue([EnqueueMessage(text: "quick")], to: ben.peerId)
        // Waited for as the view shows it: the view hears of a commit after a read transaction can see it, so a wait
        // on the stored message could end before the view's last state arrived (it did once, under load).
        try await AccountIntegrationTests.wait("the text sent, as the view shows it") {
            seen.withLock { $0.last.map { !$0.unsent } ?? false }
        }
        let states = seen.withLock { $0 }
        #expect(states.first.map { $0.unsent && !$0.acknowledged } == true, "\(states)")
        #expect(states.contains { $0.unsent && $0.acknowledged }, "never marked received while unsent: \(states)")
        #expect(states.last.map { !$0.unsent && $0.acknowledged } == true, "\(states)")
        try await world.close([ann, ben])
    }
}
