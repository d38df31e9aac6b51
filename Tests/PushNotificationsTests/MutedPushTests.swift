import Foundation
import MTProtoCore
import Postbox
import PostboxTesting
import PushNotifications
import SyncCore
import Testing

/// A muted chat's push is not shown (Telegram-iOS `NotificationService`): the background push tg-server sends for a
/// chat the account muted (no `loc_key`), and a push for a chat muted in the account's Postbox
/// (`PeerNotificationSettingsEntry`), whose message is stored all the same.
@Suite struct MutedPushTests {
    typealias Installation = NotificationServiceTests.Installation

    @Test func aBackgroundPushIsNotShownAndStoresNothing() throws {
        let installation = try Installation()
        let service = NotificationService(rootPath: installation.root.path)
        let json = #"{"custom":{"date":"1800000000","from_id":"2000","msg_id":"5"}}"#
        let opened = try service.open(NotificationServiceTests.pushFile(json, key: installation.key))
        #expect(opened.push.isBackground)
        let stored = try service.store(opened)
        #expect(!stored.shown && stored.preview.isEmpty)
        #expect(stored.outcome == .notStored(MessageId(peerId: .user(2000), namespace: Namespaces.Message.cloud, id: 5)))
        // loc_args without loc_key is not a push this service understands.
        let odd = #"{"custom":{"from_id":"2000","msg_id":"6"},"loc_args":["alice"]}"#
        #expect(throws: NotificationServiceError.self) {
            try service.open(NotificationServiceTests.pushFile(odd, key: installation.key))
        }
    }

    @Test func aPushForAChatMutedHereIsStoredButNotShown() throws {
        let installation = try Installation()
        do {
            let postbox = try installation.postbox()
            try postbox.transactionSync { tx in
                try PeerNotificationSettingsEntry.set(
                    TelegramPeerNotificationSettings(muteUntil: TelegramPeerNotificationSettings.mutedForever),
                    for: .user(2000), transaction: tx)
            }
        }
        let service = NotificationService(rootPath: installation.root.path)
        let muted = try service.store(
            try service.open(NotificationServiceTests.pushFile(NotificationServiceTests.json, key: installation.key)))
        let id = MessageId(peerId: .user(2000), namespace: Namespaces.Message.cloud, id: 3)
        #expect(muted.outcome == .stored(id) && !muted.shown)
        // A mute that is over shows again.
        do {
            let postbox = try installation.postbox()
            try postbox.transactionSync { tx in
                try PeerNotificationSettingsEntry.set(
                    TelegramPeerNotificationSettings(muteUntil: 1_700_000_000), for: .user(2000), transaction: tx)
            }
        }
        let json = NotificationServiceTests.json.replacingOccurrences(of: #""msg_id":"3""#, with: #""msg_id":"4""#)
        let shown = try service.store(
            try service.open(NotificationServiceTests.pushFile(json, key: installation.key)), now: 1_800_000_000)
        #expect(shown.shown && shown.preview == "alice: \(NotificationServiceTests.text)")
    }
}
