public import Postbox
import SyncCore
public import TelegramCore

/// What `tg forward` does (TelegramCore's `EnqueueMessage.forward` through the pending-message manager, which sends
/// `messages.forwardMessages`), shared by the command-line tool and scripts.
public enum ForwardCommands {
    /// Forwards messages `ids` of `from`'s chat (each found stored, or loaded with the chat's newest 100) to `to`, in
    /// order, and waits (at most `timeout` seconds) until the server has each; returns the copies. `hideAuthor` sends
    /// plain copies (`drop_author`), `hideCaptions` with it leaves media without captions (`drop_media_captions`).
    public static func forward(
        _ account: Account, from: PeerId, ids: [Int32], to: PeerId, hideAuthor: Bool = false,
        hideCaptions: Bool = false, timeout: Double
    ) async throws(ClientError) -> [Message] {
        guard !SecretChatting.isSecret(from), !SecretChatting.isSecret(to) else {
            throw .badInput("secret chats' messages are not forwarded through the server — forward between cloud chats")
        }
        guard !ids.isEmpty, ids.count <= maximumCount else {
            throw .badInput("forward 1 to \(maximumCount) messages at a time, not \(ids.count)")
        }
        var sources: [MessageId] = []
        for id in ids {
            let message = try await HistoryLoading.find(account, peerId: from, id: id, timeout: timeout)
            if message.media.contains(where: { $0 is TelegramMediaAction }) {
                throw .badInput("message \(id) is a service message, which cannot be forwarded")
            }
            sources.append(message.id)
        }
        return try await MessageSending.send(
            sources.map { EnqueueMessage.forward($0, hideNames: hideAuthor, hideCaptions: hideCaptions) }, to: to,
            account: account, timeout: timeout)
    }

    /// The most messages one `messages.forwardMessages` carries (`forwarded_count_max`, 100 on Telegram).
    public static let maximumCount = 100
}
