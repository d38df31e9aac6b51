import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// `updateReadMessagesContents` (core.telegram.org): the other side listened to our voice note, found by its global
/// id and marked played (`ConsumableContentMessageAttribute`); a message already played or not stored is left alone.
@Suite struct ConsumedContentsTests {
    @Test func theOtherSideListeningMarksOurVoiceNotePlayed() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let friend = AccountStateManagerTests.friend
        let voiceId = MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: 5)
        let voice = TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 1),
            resource: .cloudDocument(datacenterId: 2, fileId: 1, accessHash: 1, fileReference: [], size: 300),
            mimeType: "audio/ogg", size: 300,
            attributes: [.audio(isVoice: true, duration: 1, title: nil, performer: nil, waveform: nil)])
        try harness.postbox.transactionSync { tx in
            try tx.addMessages([
                StoreMessage(
                    id: .id(voiceId), timestamp: 100, flags: [], authorId: AccountStateManagerTests.me, text: "",
                    attributes: [ConsumableContentMessageAttribute(consumed: false)], media: [voice])
            ])
        }
        let manager = harness.manager()
        let consumed = LockedValue<[MessageId]>([])
        let watch = manager.appliedBatches.start(next: { summary in consumed.withLock { $0 += summary.consumed } })
        manager.start()
        harness.advance(by: 0.01)
        #expect(try harness.postbox.readTransactionSync { try $0.getMessage(voiceId) }?.isMediaUnread == true)
        harness.server.pipe.putNext(
            .updateShort(.init(update: .updateReadMessagesContents(.init(messages: [5, 77], pts: 11, ptsCount: 1)), date: 200)))
        harness.advance(by: 0.01)
        #expect(consumed.withLock { $0 } == [voiceId], "only the stored, unplayed note")
        #expect(try harness.postbox.readTransactionSync { try $0.getMessage(voiceId) }?.isMediaUnread == false)
        #expect(manager.statistics.unhandledUpdates.isEmpty)
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }
}
