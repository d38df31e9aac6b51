import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// `updateNotifySettings` from the account's other devices is applied into Postbox (`PeerNotificationSettingsEntry`):
/// a chat's settings replace the stored ones and are named in `Summary.notifySettings`; the defaults remove them; a
/// kind's (`notifyUsers`) is applied as nothing, and never counted as unhandled.
@Suite struct ApplyNotifySettingsTests {
    @Test func updateNotifySettingsIsStoredPerChat() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let named = LockedValue<[PeerId]>([])
        let unhandled = LockedValue<[String]>([])
        let watch = manager.appliedBatches.start(next: { summary in
            named.withLock { $0 += summary.notifySettings }
            unhandled.withLock { $0 += summary.unhandled }
        })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ update: Api.Update) {
            harness.server.pipe.putNext(.updateShort(.init(update: update, date: 200)))
            harness.advance(by: 0.01)
        }
        let friend = AccountStateManagerTests.friend
        func stored() throws -> TelegramPeerNotificationSettings {
            try harness.postbox.readTransactionSync { try PeerNotificationSettingsEntry.settings(friend, transaction: $0) }
        }
        let peer = Api.NotifyPeer.notifyPeer(.init(peer: .peerUser(.init(userId: friend.id.rawValue))))
        push(.updateNotifySettings(.init(peer: peer, notifySettings: .peerNotifySettings(.init(silent: true, muteUntil: Int32.max)))))
        #expect(try stored() == TelegramPeerNotificationSettings(muteUntil: Int32.max, silent: true))
        #expect(try stored().isMuted(at: 1_800_000_000))
        push(.updateNotifySettings(.init(peer: .notifyUsers, notifySettings: .peerNotifySettings(.init(muteUntil: 5)))))
        push(.updateNotifySettings(.init(peer: peer, notifySettings: .peerNotifySettings(.init()))))
        #expect(try stored().isDefault)
        #expect(named.withLock { $0 } == [friend, friend])
        #expect(unhandled.withLock { $0 }.isEmpty, "\(unhandled.withLock { $0 })")
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }
}
