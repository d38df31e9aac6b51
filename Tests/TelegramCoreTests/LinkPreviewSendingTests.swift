import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramApi
import Testing

@testable import TelegramCore

/// A text enqueued with `disableLinkPreviews` goes out with `messages.sendMessage`'s `no_webpage` (Telegram-iOS
/// `OutgoingContentInfoMessageAttribute`), one without it does not, and the server's copy replaces the local one
/// without the attribute.
@Suite struct LinkPreviewSendingTests {
    @Test(.timeLimit(.minutes(1))) func noWebpageIsSentOnlyWhenAsked() async throws {
        let directory = TemporaryDirectory(prefix: "no-webpage")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard let send = function as? Api.functions.messages.sendMessage else { return nil }
            return Api.Updates.updateShortSentMessage(
                .init(out: true, id: send.noWebpage ? 51 : 52, pts: 1, ptsCount: 1, date: 100))
        }
        let account = try PeerActionErrorsTests.account(network, in: directory)
        var quiet = EnqueueMessage(text: "see http://example.com/a")
        quiet.disableLinkPreviews = true
        let local = try account.enqueue([quiet, EnqueueMessage(text: "and http://example.com/b")], to: .user(2))
        let attributes = try account.postbox.readTransactionSync { tx in try tx.getMessage(local[0])?.attributes }
        #expect(
            attributes?.contains { ($0 as? OutgoingContentInfoMessageAttribute)?.disableLinkPreviews == true } == true)
        account.pendingMessages.start()
        let second = MessageId(peerId: .user(2), namespace: Namespaces.Message.cloud, id: 52)
        try await AccountIntegrationTests.wait("both sent") {
            let stored = try account.postbox.readTransactionSync { tx in try tx.getMessage(second) }
            return stored != nil && network.calls.compactMap { $0 as? Api.functions.messages.sendMessage }.count == 2
        }
        let sent = network.calls.compactMap { $0 as? Api.functions.messages.sendMessage }
        #expect(sent.map(\.noWebpage) == [true, false])
        let stored = try account.postbox.readTransactionSync { tx in
            try tx.getMessage(MessageId(peerId: .user(2), namespace: Namespaces.Message.cloud, id: 51))
        }
        #expect(stored?.attributes.contains { $0 is OutgoingContentInfoMessageAttribute } == false)
    }
}
