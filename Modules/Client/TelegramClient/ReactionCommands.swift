public import Postbox
import SyncCore
public import TelegramCore

/// What `tg react` does (TelegramCore's `Account.sendReaction`), shared by the command-line tool and the interactive
/// client.
public enum ReactionCommands {
    /// Sets our reaction to message `id` of `peerId`'s chat to `emoji` (empty removes ours); returns the message's
    /// reactions as the server answered.
    public static func react(
        _ account: Account, _ peerId: PeerId, id: Int32, emoji: [String], big: Bool = false
    ) async throws(ClientError) -> [ReactionSummary] {
        let messageId = MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: id)
        let attribute = try await ChannelCommands.run(
            emoji.isEmpty ? "removing the reaction to message \(id)" : "reacting to message \(id)"
        ) { () async throws(PeerActionError) -> ReactionsMessageAttribute in
            try await account.sendReaction(messageId, emoticons: emoji, big: big)
        }
        return attribute.reactions.map(ReactionSummary.init)
    }
}
