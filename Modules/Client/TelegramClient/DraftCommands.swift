import Foundation
public import Postbox
public import TelegramCore

/// What `tg draft` does (TelegramCore's `Account.saveDraft`), shared by the command-line tool and the interactive
/// client.
public enum DraftCommands {
    /// Saves `markdown` (parsed as `tg send` parses it) as the draft of `peerId`'s chat, replying to `replyTo`; an
    /// empty text clears it.
    public static func save(
        _ account: Account, _ peerId: PeerId, markdown: String, replyTo: Int32? = nil
    ) async throws(ClientError) {
        guard !SecretChatting.isSecret(peerId) else {
            throw .badInput("a secret chat's draft is not kept by the server")
        }
        let (text, entities) = OutgoingText.parse(markdown)
        try await ChannelCommands.run(text.isEmpty ? "clearing the draft" : "saving the draft") {
            () async throws(PeerActionError) in
            try await account.saveDraft(peerId, text: text, entities: entities, replyTo: replyTo)
        }
    }
}
