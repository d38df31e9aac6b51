public import Postbox
import SyncCore
public import TelegramCore

/// The names a drawn chat shows (ChatRender's `names`): each message's author, and the first author of each forward
/// ("Forwarded from NAME"), who is often no member of the chat and is found among the account's stored peers.
public enum ChatNames {
    /// The names of `messages`' authors and forwarded authors, read from `account`'s Postbox where a message does not
    /// carry its author.
    public static func of(_ messages: [Message], account: Account) -> [PeerId: String] {
        var names: [PeerId: String] = [:]
        for message in messages {
            if let author = message.author, names[author.id] == nil {
                names[author.id] = PeerResolver.displayName(author)
            }
        }
        let forwarded = Set(
            messages.compactMap { message in
                message.attributes.compactMap { $0 as? ForwardSourceInfoAttribute }.first?.authorId
            }
        ).subtracting(names.keys)
        guard !forwarded.isEmpty else { return names }
        let peers =
            (try? account.postbox.readTransactionSync { tx in try forwarded.compactMap { try tx.getPeer($0) } })
            ?? []
        for peer in peers { names[peer.id] = PeerResolver.displayName(peer) }
        return names
    }
}
