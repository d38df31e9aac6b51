import ServerStore
import TLRuntime
import TelegramApi

/// `messages.forwardMessages` from a channel (to anyone the caller may write to, a channel included: forwarding to a
/// channel posts there as `sendToChannel` does).
extension ServerBackend {
    /// Copies of a channel's messages the caller may read, service messages left out: a broadcast post's header names
    /// the channel and the post (`channel_post`), a supergroup message's its sender (by name only when the sender's
    /// forwards privacy hides the link from the caller, `forwardHeader`).
    func forwardedFromChannel(_ call: Api.functions.messages.forwardMessages, caller: Caller) throws -> [Outgoing] {
        let originals = try store.read { tx throws -> [(ChannelMessageRecord, Api.MessageFwdHeader)] in
            guard let access = try channelAccess(call.fromPeer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            return try tx.channelMessages(channelId: access.channel.id, ids: call.id.map(Int64.init)).filter {
                $0.action == nil
            }.map { original in
                let header =
                    try original.forward.flatMap { try? Api.MessageFwdHeader(tlBytes: $0) }
                    ?? (original.post
                        ? .messageFwdHeader(
                            .init(
                                fromId: .peerChannel(.init(channelId: original.channelId)), date: original.date,
                                channelPost: Int32(truncatingIfNeeded: original.id)))
                        : forwardHeader(
                            author: original.fromId, date: original.date, forwarder: caller.userId, tx: tx))
                return (original, header)
            }
        }
        let randomIds = Self.forwardRandomIds(call)
        return originals.compactMap { original, header in
            guard let randomId = randomIds[original.id] else { return nil }
            return Self.forwardCopy(
                call, randomId: randomId, text: original.text, entities: Self.decodeEntities(original.entities),
                media: original.media.flatMap { try? Api.MessageMedia(tlBytes: $0) }, mediaKind: original.mediaKind,
                groupedId: original.groupedId, header: header)
        }
    }
}
