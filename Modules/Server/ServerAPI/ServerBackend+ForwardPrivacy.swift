import ServerStore
import TelegramApi

/// The forwards privacy key (core.telegram.org "Privacy", `inputPrivacyKeyForwards`: "whether messages forwarded from
/// the user will be anonymously forwarded"; telegram.org/blog/unsend-privacy-emoji "Anonymous forwarding"): a
/// forwarded copy links to its author only when the author's rules allow the user who forwards it — "My Contacts"
/// means forwards made by the author's contacts. Otherwise the header carries the author's name as `from_name` and no
/// `from_id`, which clients draw as "Forwarded from NAME", not clickable.
extension ServerBackend {
    /// The forward header naming `author` (at `date`) on a copy `forwarder` makes: `from_id` when the author's
    /// forwards rules allow `forwarder` (one's own messages always do), else `from_name`.
    func forwardHeader(
        author: Int64, date: Int32, forwarder: Int64, tx: StoreTransaction
    ) throws
        -> Api.MessageFwdHeader
    {
        let linked: Api.MessageFwdHeader = .messageFwdHeader(
            .init(fromId: .peerUser(.init(userId: author)), date: date))
        guard author != forwarder else { return linked }
        let rules = try privacyRules(owner: author, key: .forwards, tx: tx)
        guard try !rules.allows(forwarder, isContact: { try tx.isContact(owner: author, userId: forwarder) }),
            let user = try tx.user(id: author)
        else { return linked }
        return .messageFwdHeader(.init(fromName: Self.forwardName(user), date: date))
    }

    /// The name a hidden author is shown under: first and last name, as Telegram's apps show a user.
    static func forwardName(_ user: UserRecord) -> String {
        [user.firstName, user.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
