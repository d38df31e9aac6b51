import ServerStore
import TLRuntime
import TelegramApi

/// Settings of supergroups, broadcast channels and basic groups (core.telegram.org methods `channels.toggleSlowMode`,
/// `channels.toggleSignatures`, `messages.editChatDefaultBannedRights`; "Admin, banned, default rights"), and how
/// they are enforced on sending.
extension ServerBackend {
    /// The slow-mode delays Telegram offers (`SECONDS_INVALID` for any other).
    static let slowModeDelays: Set<Int32> = [0, 10, 30, 60, 300, 900, 3600]

    /// Decoded banned rights, `nil` when none are stored.
    static func bannedRights(_ bytes: [UInt8]?) -> Api.ChatBannedRights.Cons_chatBannedRights? {
        guard let bytes, case .chatBannedRights(let rights)? = try? Api.ChatBannedRights(tlBytes: bytes) else {
            return nil
        }
        return rights
    }

    /// Throws what Telegram answers when `rights` forbid sending `messages` (all 403): `CHAT_WRITE_FORBIDDEN` when
    /// sending at all is, `CHAT_SEND_MEDIA_FORBIDDEN` for any media, `CHAT_SEND_PHOTOS_FORBIDDEN`,
    /// `…_VIDEOS_`, `…_VOICES_`, `…_AUDIOS_`, `…_DOCS_`, `…_STICKERS_`, `…_GIFS_FORBIDDEN` per kind,
    /// `CHAT_SEND_PLAIN_FORBIDDEN` for text alone. Service messages pass.
    static func checkSendRights(
        _ rights: Api.ChatBannedRights.Cons_chatBannedRights, _ messages: [Outgoing], checkSending: Bool = true
    ) throws {
        if checkSending, rights.sendMessages { throw APIError.forbidden("CHAT_WRITE_FORBIDDEN") }
        for message in messages where message.action == nil {
            guard message.media != nil else {
                if rights.sendPlain { throw APIError.forbidden("CHAT_SEND_PLAIN_FORBIDDEN") }
                continue
            }
            if rights.sendMedia { throw APIError.forbidden("CHAT_SEND_MEDIA_FORBIDDEN") }
            let forbidden: String?
            switch MediaKind(rawValue: message.mediaKind) {
            case .photo: forbidden = rights.sendPhotos ? "CHAT_SEND_PHOTOS_FORBIDDEN" : nil
            case .video: forbidden = rights.sendVideos ? "CHAT_SEND_VIDEOS_FORBIDDEN" : nil
            case .voice: forbidden = rights.sendVoices ? "CHAT_SEND_VOICES_FORBIDDEN" : nil
            case .audio: forbidden = rights.sendAudios ? "CHAT_SEND_AUDIOS_FORBIDDEN" : nil
            case .document: forbidden = rights.sendDocs ? "CHAT_SEND_DOCS_FORBIDDEN" : nil
            case .sticker: forbidden = rights.sendStickers ? "CHAT_SEND_STICKERS_FORBIDDEN" : nil
            case .gif: forbidden = rights.sendGifs ? "CHAT_SEND_GIFS_FORBIDDEN" : nil
            case .poll: forbidden = rights.sendPolls ? "CHAT_SEND_POLL_FORBIDDEN" : nil
            case .geo, .contact, .dice, .none?, nil: forbidden = nil
            }
            if let forbidden { throw APIError.forbidden(forbidden) }
        }
    }

    /// What a supergroup member who is no admin may not send, by their own restriction (while it lasts; sending at all
    /// is `checkCanPost`'s) and by the supergroup's default rights; and slow mode (420 `SLOWMODE_WAIT_X`, the
    /// seconds left). Admins are exempt.
    func checkChannelSending(_ access: ChannelAccess, _ messages: [Outgoing], date: Int32, tx: StoreTransaction) throws
    {
        guard !access.channel.broadcast, !access.isAdmin else { return }
        if let own = access.member?.bannedRights.flatMap({ Self.bannedRights($0) }),
            own.untilDate == 0 || own.untilDate > date
        {
            try Self.checkSendRights(own, messages, checkSending: false)
        }
        if let defaults = Self.bannedRights(access.channel.defaultBannedRights) {
            try Self.checkSendRights(defaults, messages)
        }
        let delay = access.channel.slowmodeSeconds
        guard delay > 0 else { return }
        let last = try tx.lastPost(channelId: access.channel.id, userId: access.viewer)
        if last > 0, last + delay > date { throw APIError(420, "SLOWMODE_WAIT_\(last + delay - date)") }
    }

    /// Whether a supergroup's default rights take `right` from its members.
    static func defaultForbids(
        _ channel: ChannelRecord, _ right: KeyPath<Api.ChatBannedRights.Cons_chatBannedRights, Bool>
    ) -> Bool {
        bannedRights(channel.defaultBannedRights)?[keyPath: right] ?? false
    }

    /// Whether a basic group's default rights take `right` from `userId` (never from its creator).
    static func defaultForbids(
        _ chat: ChatRecord, _ right: KeyPath<Api.ChatBannedRights.Cons_chatBannedRights, Bool>, userId: Int64
    ) -> Bool {
        chat.creator != userId && (bannedRights(chat.defaultBannedRights)?[keyPath: right] ?? false)
    }

    /// `updateChannel` with the channel as each member online sees it, and the caller's `updates` with it.
    private func channelChanged(
        _ channelId: Int64, caller: Caller, date: Int32, tx: StoreTransaction, pushes: inout [Push]
    ) throws -> Api.Updates {
        guard let channel = try tx.channel(id: channelId) else { throw APIError.internalError }
        pushes = try channelPushes(channel, userIds: [], date: date, tx: tx) { _ in
            [.updateChannel(.init(channelId: channel.id))]
        }
        return .updates(
            .init(
                updates: [.updateChannel(.init(channelId: channel.id))], users: [],
                chats: [try apiChannel(channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
    }

    /// `channels.toggleSlowMode`: a supergroup's admins with `ban_users` set 0, 10, 30, 60, 300, 900 or 3600 seconds
    /// (`SECONDS_INVALID`); `CHAT_NOT_MODIFIED` when unchanged; a broadcast channel has none (`INPUT_METHOD_INVALID`).
    func toggleSlowMode(_ call: Api.functions.channels.toggleSlowMode, caller: Caller) throws -> Api.Updates {
        guard Self.slowModeDelays.contains(call.seconds) else { throw APIError.badRequest("SECONDS_INVALID") }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard !access.channel.broadcast else { throw APIError.badRequest("INPUT_METHOD_INVALID") }
                guard access.can(\.banUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                guard access.channel.slowmodeSeconds != call.seconds else {
                    throw APIError.badRequest("CHAT_NOT_MODIFIED")
                }
                var channel = access.channel
                channel.slowmodeSeconds = call.seconds
                try tx.updateSettings(of: channel)
                return try channelChanged(channel.id, caller: caller, date: date, tx: tx, pushes: &pushes)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `channels.toggleSignatures`: a broadcast channel's admins with `change_info` sign posts from now on (each
    /// post keeps its `post_author`); `CHAT_NOT_MODIFIED` when unchanged; supergroups have none
    /// (`CHANNEL_INVALID`).
    func toggleSignatures(_ call: Api.functions.channels.toggleSignatures, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.channel.broadcast else { throw APIError.channelInvalid }
                guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                guard access.channel.signatures != call.signaturesEnabled else {
                    throw APIError.badRequest("CHAT_NOT_MODIFIED")
                }
                var channel = access.channel
                channel.signatures = call.signaturesEnabled
                try tx.updateSettings(of: channel)
                return try channelChanged(channel.id, caller: caller, date: date, tx: tx, pushes: &pushes)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.editChatDefaultBannedRights`: what every member who is no admin may not do, in a supergroup (admins
    /// with `ban_users`; `updateChannel`) or a basic group (its creator; `updateChatDefaultBannedRights` to every
    /// member). `view_messages` cannot be taken by default (`RIGHT_FORBIDDEN`); `CHAT_NOT_MODIFIED` when unchanged;
    /// broadcast channels have none (`CHANNEL_INVALID`).
    func editChatDefaultBannedRights(
        _ call: Api.functions.messages.editChatDefaultBannedRights, caller: Caller
    ) throws -> Api.Updates {
        guard case .chatBannedRights(let given) = call.bannedRights else { throw APIError.internalError }
        guard !given.viewMessages else { throw APIError.forbidden("RIGHT_FORBIDDEN") }
        // Defaults last until changed: until_date is not theirs to set (Telegram shows 2^31 - 1).
        let rights = Api.ChatBannedRights.chatBannedRights(
            .init(
                sendMessages: given.sendMessages, sendMedia: given.sendMedia, sendStickers: given.sendStickers,
                sendGifs: given.sendGifs, sendGames: given.sendGames, sendInline: given.sendInline,
                embedLinks: given.embedLinks, sendPolls: given.sendPolls, changeInfo: given.changeInfo,
                inviteUsers: given.inviteUsers, pinMessages: given.pinMessages, manageTopics: given.manageTopics,
                sendPhotos: given.sendPhotos, sendVideos: given.sendVideos, sendRoundvideos: given.sendRoundvideos,
                sendAudios: given.sendAudios, sendVoices: given.sendVoices, sendDocs: given.sendDocs,
                sendPlain: given.sendPlain, untilDate: Int32.max)
        ).serialized()
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                if let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) {
                    guard !access.channel.broadcast else { throw APIError.channelInvalid }
                    guard access.can(\.banUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                    guard access.channel.defaultBannedRights ?? Self.noBannedRights != rights else {
                        throw APIError.badRequest("CHAT_NOT_MODIFIED")
                    }
                    var channel = access.channel
                    channel.defaultBannedRights = rights
                    try tx.updateSettings(of: channel)
                    return try channelChanged(channel.id, caller: caller, date: date, tx: tx, pushes: &pushes)
                }
                guard case .inputPeerChat(let input) = call.peer else { throw APIError.peerIdInvalid }
                guard let chat = try tx.chat(id: input.chatId),
                    chat.members.contains(where: { $0.userId == caller.userId })
                else {
                    throw APIError.chatIdInvalid
                }
                try Self.checkNotMigrated(chat)
                guard chat.creator == caller.userId else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                guard chat.defaultBannedRights ?? Self.noBannedRights != rights else {
                    throw APIError.badRequest("CHAT_NOT_MODIFIED")
                }
                try tx.setDefaultBannedRights(rights, chatId: chat.id)
                try tx.bumpVersion(chatId: chat.id)
                guard let changed = try tx.chat(id: chat.id) else { throw APIError.internalError }
                var answer: Api.Updates?
                for member in changed.members {
                    let updates = Api.Updates.updates(
                        .init(
                            updates: [
                                .updateChatDefaultBannedRights(
                                    .init(
                                        peer: .peerChat(.init(chatId: chat.id)),
                                        defaultBannedRights: Self.apiBannedRights(changed.defaultBannedRights),
                                        version: changed.version))
                            ], users: [], chats: [apiChat(changed, viewer: member.userId, tx: tx)], date: date,
                            seq: 0))
                    // Kept for `updates.getDifference` too: the update carries no pts, and a member away would
                    // otherwise hear of the change only when the group is loaded again.
                    try tx.appendUpdateWithoutPts(
                        owner: member.userId, date: date,
                        body: Api.Update.updateChatDefaultBannedRights(
                            .init(
                                peer: .peerChat(.init(chatId: chat.id)),
                                defaultBannedRights: Self.apiBannedRights(changed.defaultBannedRights),
                                version: changed.version)
                        ).serialized())
                    pushes.append(Push(authKeyIds: try authKeys(of: member.userId, tx: tx), updates: updates))
                    if member.userId == caller.userId { answer = updates }
                }
                guard let answer else { throw APIError.internalError }
                return answer
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// No right taken: what a chat without stored defaults shows.
    static let noBannedRights = Api.ChatBannedRights.chatBannedRights(.init(untilDate: Int32.max)).serialized()

    /// Stored default rights as a chat shows them (none taken when nothing is stored).
    static func apiBannedRights(_ bytes: [UInt8]?) -> Api.ChatBannedRights {
        bannedRights(bytes).map { .chatBannedRights($0) } ?? .chatBannedRights(.init(untilDate: Int32.max))
    }

    /// When the caller may post again in a supergroup in slow mode, if that is still to come.
    func slowModeNextSendDate(_ access: ChannelAccess, tx: StoreTransaction) throws -> Int32? {
        let delay = access.channel.slowmodeSeconds
        guard !access.channel.broadcast, delay > 0, access.isMember, !access.isAdmin else { return nil }
        let last = try tx.lastPost(channelId: access.channel.id, userId: access.viewer)
        return last > 0 && last + delay > now ? last + delay : nil
    }
}
