import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Notify settings across devices with Telethon 1.45 signed in to the same account on a real tg-server: Telethon's
/// `account.updateNotifySettings` (muted forever) reaches our Postbox as `updateNotifySettings`
/// (`PeerNotificationSettingsEntry`, what the chat list shows); our `Account.updateNotifySettings` unmuting it
/// reaches Telethon pushed, in `account.getNotifySettings` and in `dialog.notify_settings`.
@Suite(.serialized) struct NotifySettingsSyncTests {
    struct Muted: Decodable {
        let user_id: Int64
        let muted: Int32
    }

    struct Unmuted: Decodable {
        let unmuted: Bool
        let get_notify_settings: Int32?
        let dialog_mute_until: Int32?
    }

    @Test func aMuteTravelsBetweenTelethonAndUs() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622741", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622742", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622742", name: "Ben", to: ann)
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        #expect(!ann.notificationSettings(ben.peerId).isMuted(at: Int32(Date().timeIntervalSince1970)))
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "mute_peer.py", ["--phone", "9996622741", "--target-phone", "9996622742", "--wait", "30"])
        let muted = try JSONDecoder().decode(Muted.self, from: Data(firstLine.utf8))
        #expect(muted.user_id == ann.peerId.id.rawValue, "Telethon is Ann's other device")

        // Telethon's mute lands here.
        try await AccountIntegrationTests.wait("Telethon's mute stored", timeout: 30) {
            ann.notificationSettings(ben.peerId).muteUntil == Int32.max
        }

        // Our unmute reaches Telethon.
        try await ann.updateNotifySettings(ben.peerId, muteUntil: 0)
        #expect(ann.notificationSettings(ben.peerId).muteUntil == nil, "stored at once")
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(
            Unmuted.self, from: Data(try #require(result.output.split(separator: "\n").last).utf8))
        #expect(
            report.unmuted && report.get_notify_settings == nil && report.dialog_mute_until == nil, "\(result.output)")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann, ben])
    }
}
