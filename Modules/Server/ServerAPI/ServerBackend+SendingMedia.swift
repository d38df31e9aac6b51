import ServerStore
import TLRuntime
import TelegramApi

/// Messages with media, albums and forwards: stored like text messages, pushed as `updates` with `updateNewMessage`
/// (Telegram's short forms carry no media), and answered with the caller's `updates`.
extension ServerBackend {
    func sendMedia(_ call: Api.functions.messages.sendMedia, caller: Caller) throws -> Api.Updates {
        try TextLimit.caption.check(call.message)
        if Self.isPublicPoll(call.media), try isBroadcastChannel(call.peer, caller: caller) {
            throw APIError.badRequest("BROADCAST_PUBLIC_VOTERS_FORBIDDEN")
        }
        let (media, kind) = try media(call.media, caller: caller)
        let entities = try storedEntities(call.entities, text: call.message, caller: caller)
        let outgoing = Outgoing(
            text: call.message, entities: entities, media: media, mediaKind: kind.rawValue,
            replyTo: Self.replyId(call.replyTo),
            silent: call.silent, randomId: call.randomId)
        if let scheduled = try schedule([outgoing], to: call.peer, at: call.scheduleDate, caller: caller) {
            return scheduled
        }
        if Self.isChannel(call.peer) { return try sendToChannel([outgoing], peer: call.peer, caller: caller) }
        return try sentUpdates(
            try deliver([outgoing], to: call.peer, caller: caller), randomIds: [call.randomId], caller: caller)
    }

    /// Whether `peer` is a broadcast channel the caller may reach (a poll there may not show its voters).
    private func isBroadcastChannel(_ peer: Api.InputPeer, caller: Caller) throws -> Bool {
        try store.read { tx in try channelAccess(peer, caller: caller, need: .known, tx: tx)?.channel.broadcast ?? false
        }
    }

    /// `messages.sendMultiMedia`: an album, up to 10 items sharing one `grouped_id`.
    func sendMultiMedia(_ call: Api.functions.messages.sendMultiMedia, caller: Caller) throws -> Api.Updates {
        guard (1...10).contains(call.multiMedia.count) else { throw APIError.badRequest("MULTI_MEDIA_TOO_LONG") }
        let groupedId = Self.randomId()
        var messages: [Outgoing] = []
        for case .inputSingleMedia(let single) in call.multiMedia {
            try TextLimit.caption.check(single.message)
            let entities = try storedEntities(single.entities, text: single.message, caller: caller)
            let (media, kind) = try media(single.media, caller: caller)
            messages.append(
                Outgoing(
                    text: single.message, entities: entities, media: media, mediaKind: kind.rawValue,
                    replyTo: Self.replyId(call.replyTo), silent: call.silent, randomId: single.randomId,
                    groupedId: groupedId))
        }
        if let scheduled = try schedule(messages, to: call.peer, at: call.scheduleDate, caller: caller) {
            return scheduled
        }
        if Self.isChannel(call.peer) { return try sendToChannel(messages, peer: call.peer, caller: caller) }
        return try sentUpdates(
            try deliver(messages, to: call.peer, caller: caller), randomIds: messages.map(\.randomId), caller: caller)
    }

    /// `messages.uploadMedia`: stores the media (for an album, or to send later) without sending it.
    func uploadMedia(_ call: Api.functions.messages.uploadMedia, caller: Caller) throws -> Api.MessageMedia {
        try media(call.media, caller: caller).media
    }

    /// `messages.forwardMessages`: copies of the caller's messages (or of a channel's, `forwardedFromChannel`), with a
    /// forward header naming their sender; to a channel they are posted there. `drop_author` sends plain copies with
    /// no header, and with it `drop_media_captions` leaves media without their captions (core.telegram.org
    /// `messages.forwardMessages`; TDLib's `forwardMessages` sends `remove_caption` only with `send_copy`, and
    /// Telegram-iOS offers "hide captions" only once names are hidden: a caption is never dropped under the author's
    /// name). Ids the caller cannot forward are left out; none left is `MESSAGE_ID_INVALID`.
    func forwardMessages(_ call: Api.functions.messages.forwardMessages, caller: Caller) throws -> Api.Updates {
        guard call.id.count == call.randomId.count, (1...100).contains(call.id.count) else {
            throw APIError.badRequest("RANDOM_ID_INVALID")
        }
        let messages = Self.regrouped(
            Self.isChannel(call.fromPeer)
                ? try forwardedFromChannel(call, caller: caller) : try forwardedFromBox(call, caller: caller))
        guard !messages.isEmpty else { throw APIError.messageIdInvalid }
        if Self.isChannel(call.toPeer) { return try sendToChannel(messages, peer: call.toPeer, caller: caller) }
        return try sentUpdates(
            try deliver(messages, to: call.toPeer, caller: caller), randomIds: messages.map(\.randomId),
            caller: caller)
    }

    /// Copies of the caller's own messages to forward, each with a header naming its sender (by name only when the
    /// sender's forwards privacy hides the link from the caller, `forwardHeader`).
    private func forwardedFromBox(_ call: Api.functions.messages.forwardMessages, caller: Caller) throws -> [Outgoing] {
        let originals = try store.read { tx throws -> [(MessageRecord, Api.MessageFwdHeader)] in
            let from = try resolve(call.fromPeer, caller: caller, tx: tx)
            return try tx.messages(owner: caller.userId, ids: call.id.map(Int64.init)).filter {
                $0.peer == from && $0.action == nil
            }.map { original in
                let header =
                    try original.forward.flatMap { try? Api.MessageFwdHeader(tlBytes: $0) }
                    ?? forwardHeader(author: original.fromId, date: original.date, forwarder: caller.userId, tx: tx)
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

    /// The forwarded copies of an album are an album of their own: each original `grouped_id` becomes one new id for
    /// this forward (core.telegram.org/api/files "Albums": the copies of one album share a grouped_id that is not the
    /// original's — forwarding the same album twice into a chat must not make one album of twenty).
    static func regrouped(_ messages: [Outgoing], newId: () -> Int64 = { ServerBackend.randomId() }) -> [Outgoing] {
        var groups: [Int64: Int64] = [:]
        return messages.map { message in
            guard let original = message.groupedId else { return message }
            var copy = message
            if groups[original] == nil { groups[original] = newId() }
            copy.groupedId = groups[original]
            return copy
        }
    }

    /// Each forwarded id's `random_id` (the two lists pair by position).
    static func forwardRandomIds(_ call: Api.functions.messages.forwardMessages) -> [Int64: Int64] {
        Dictionary(zip(call.id.map(Int64.init), call.randomId), uniquingKeysWith: { first, _ in first })
    }

    /// One forwarded copy as `call` asks for it: with `header`, or with `drop_author` a plain copy, its caption gone
    /// when it has media and `drop_media_captions` is set too.
    static func forwardCopy(
        _ call: Api.functions.messages.forwardMessages, randomId: Int64, text: String, entities: [Api.MessageEntity]?,
        media: Api.MessageMedia?, mediaKind: Int64, groupedId: Int64?, header: Api.MessageFwdHeader
    ) -> Outgoing {
        let dropCaption = call.dropAuthor && call.dropMediaCaptions && media != nil
        return Outgoing(
            text: dropCaption ? "" : text, entities: dropCaption ? nil : entities, media: media, mediaKind: mediaKind,
            silent: call.silent, randomId: randomId, groupedId: groupedId, forward: call.dropAuthor ? nil : header)
    }
}
