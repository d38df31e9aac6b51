import ServerStore
import TLRuntime
import TelegramApi

/// Reading: `messages.getHistory`, `getMessages`, `search`, `getDialogs`, `getPeerDialogs`.
extension ServerBackend {
    /// What kind of media a stored message carries, for `messages.search` filters.
    enum MediaKind: Int64 {
        case none = 0, photo, document, voice, sticker, video, audio, gif
        /// A location, venue or live location; a shared contact; a poll; a die.
        case geo, contact, poll, dice

        /// The kinds a filter asks for; `nil` for no filter.
        static func kinds(for filter: Api.MessagesFilter) -> [Int64]? {
            switch filter {
            case .inputMessagesFilterEmpty: return nil
            case .inputMessagesFilterPhotos: return [photo.rawValue]
            case .inputMessagesFilterVideo: return [video.rawValue]
            case .inputMessagesFilterPhotoVideo: return [photo.rawValue, video.rawValue]
            case .inputMessagesFilterDocument:
                return [
                    document.rawValue, audio.rawValue, voice.rawValue, sticker.rawValue, gif.rawValue, video.rawValue,
                ]
            case .inputMessagesFilterVoice, .inputMessagesFilterRoundVoice: return [voice.rawValue]
            case .inputMessagesFilterMusic: return [audio.rawValue]
            case .inputMessagesFilterGif: return [gif.rawValue]
            case .inputMessagesFilterGeo: return [geo.rawValue]
            case .inputMessagesFilterContacts: return [contact.rawValue]
            case .inputMessagesFilterPinned: return nil
            default: return []
            }
        }
    }

    /// `inputMessagesFilterPinned`: the pinned messages only (how clients list a chat's pins).
    static func isPinnedFilter(_ filter: Api.MessagesFilter) -> Bool {
        if case .inputMessagesFilterPinned = filter { return true }
        return false
    }

    /// A page of messages as `messages.messages`, or `messagesSlice` with the total when there are more.
    func page(
        _ records: [MessageRecord], total: Int, caller: Caller, tx: StoreTransaction
    ) throws -> Api.messages.Messages {
        let (users, chats) = try participants(of: records, viewer: caller.userId, extraUsers: [caller.userId], tx: tx)
        let messages = try records.map { apiMessage($0, reactions: try storedReactions($0, tx: tx), tx: tx) }
        if total > records.count {
            return .messagesSlice(
                .init(count: Int32(clamping: total), messages: messages, topics: [], chats: chats, users: users))
        }
        return .messages(.init(messages: messages, topics: [], chats: chats, users: users))
    }

    static func checkedLimit(_ limit: Int32, maximum: Int = 100) -> Int { Int(min(max(limit, 0), Int32(maximum))) }

    func getHistory(_ call: Api.functions.messages.getHistory, caller: Caller) throws -> Api.messages.Messages {
        if Self.isChannel(call.peer) { return try channelHistory(call, caller: caller) }
        return try store.read { tx in
            let peer = try resolve(call.peer, caller: caller, tx: tx)
            let query = HistoryQuery(
                offsetId: Int64(call.offsetId), offsetDate: call.offsetDate, addOffset: Int(call.addOffset),
                limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit), maxId: Int64(call.maxId),
                minId: Int64(call.minId))
            let records = try tx.history(owner: caller.userId, peer: peer, query)
            return try page(
                records, total: try tx.messageCount(owner: caller.userId, peer: peer), caller: caller, tx: tx)
        }
    }

    func getMessages(_ call: Api.functions.messages.getMessages, caller: Caller) throws -> Api.messages.Messages {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        return try store.read { tx in
            var records: [MessageRecord] = []
            for input in call.id {
                switch input {
                case .inputMessageID(let message):
                    if let record = try tx.message(owner: caller.userId, id: Int64(message.id)) {
                        records.append(record)
                    }
                case .inputMessageReplyTo(let message):
                    if let replyTo = try tx.message(owner: caller.userId, id: Int64(message.id))?.replyTo,
                        let record = try tx.message(owner: caller.userId, id: replyTo)
                    {
                        records.append(record)
                    }
                default: continue
                }
            }
            return try page(records, total: records.count, caller: caller, tx: tx)
        }
    }

    func search(_ call: Api.functions.messages.search, caller: Caller) throws -> Api.messages.Messages {
        if Self.isChannel(call.peer) { return try searchChannel(call, caller: caller) }
        return try store.read { tx in
            var peer: PeerRef?
            if case .inputPeerEmpty = call.peer {} else { peer = try resolve(call.peer, caller: caller, tx: tx) }
            let records = try tx.search(
                owner: caller.userId, peer: peer, text: call.q, mediaKinds: MediaKind.kinds(for: call.filter),
                pinnedOnly: Self.isPinnedFilter(call.filter), offsetId: Int64(call.offsetId),
                limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit))
            return try page(records, total: records.count, caller: caller, tx: tx)
        }
    }

    func searchGlobal(_ call: Api.functions.messages.searchGlobal, caller: Caller) throws -> Api.messages.Messages {
        try store.read { tx in
            let records = try tx.search(
                owner: caller.userId, peer: nil, text: call.q, mediaKinds: MediaKind.kinds(for: call.filter),
                offsetId: Int64(call.offsetId), limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit))
            return try page(records, total: records.count, caller: caller, tx: tx)
        }
    }

    /// `draft`, when given, is the owner's draft in the chat (`dialog.draft`).
    /// `notifySettings`, the owner's for the chat (`dialog.notify_settings`).
    func apiDialog(
        _ dialog: DialogRecord, pts: Int64? = nil, draft: Api.DraftMessage? = nil,
        notifySettings: Api.PeerNotifySettings = defaultNotifySettings
    ) -> Api.Dialog {
        .dialog(
            .init(
                pinned: dialog.pinned > 0, peer: apiPeer(dialog.peer),
                topMessage: Int32(truncatingIfNeeded: dialog.topMessage),
                readInboxMaxId: Int32(truncatingIfNeeded: dialog.readInboxMax),
                readOutboxMaxId: Int32(truncatingIfNeeded: dialog.readOutboxMax),
                unreadCount: dialog.unreadCount, unreadMentionsCount: 0, unreadReactionsCount: 0,
                unreadPollVotesCount: 0,
                notifySettings: notifySettings, draft: draft))
    }

    /// The dialogs, their top messages and everyone they mention.
    func dialogParts(
        _ dialogs: [DialogRecord], caller: Caller, tx: StoreTransaction
    ) throws -> (Api.messages.Messages, [Api.Dialog]) {
        let tops = try dialogs.compactMap { try tx.message(owner: caller.userId, id: $0.topMessage) }
        var userIds = [caller.userId]
        for dialog in dialogs where dialog.peer.kind == .user { userIds.append(dialog.peer.id) }
        let (users, chats) = try participants(of: tops, viewer: caller.userId, extraUsers: userIds, tx: tx)
        var extraChats = chats
        for dialog in dialogs
        where dialog.peer.kind == .chat
            && !chats.contains(where: {
                if case .chat(let c) = $0 { return c.id == dialog.peer.id }; return false
            })
        {
            if let chat = try tx.chat(id: dialog.peer.id) {
                extraChats.append(apiChat(chat, viewer: caller.userId, tx: tx))
            }
        }
        return (
            .messages(
                .init(
                    messages: try tops.map { apiMessage($0, reactions: try storedReactions($0, tx: tx), tx: tx) },
                    topics: [],
                    chats: extraChats, users: users)),
            try dialogs.map {
                apiDialog(
                    $0, draft: try storedDraft(owner: caller.userId, peer: $0.peer, tx: tx),
                    notifySettings: try storedNotifySettings(owner: caller.userId, peer: $0.peer, tx: tx))
            }
        )
    }

    func getDialogs(_ call: Api.functions.messages.getDialogs, caller: Caller) throws -> Api.messages.Dialogs {
        try store.read { tx in
            if let merged = try dialogsWithChannels(call, caller: caller, tx: tx) { return merged }
            let limit = Self.checkedLimit(call.limit == 0 ? 20 : call.limit)
            // The next page starts below offset_id, or below offset_peer's top message, or before offset_date
            // (Telethon's iter_dialogs passes all three from the last dialog of the page before).
            var offsetId = Int64(call.offsetId)
            if offsetId <= 0, call.offsetDate <= 0, let peer = try? resolve(call.offsetPeer, caller: caller, tx: tx),
                let dialog = try tx.dialog(owner: caller.userId, peer: peer)
            {
                offsetId = dialog.topMessage
            }
            let firstPage = offsetId <= 0 && call.offsetDate <= 0
            let dialogs = try tx.dialogs(
                owner: caller.userId, offsetId: offsetId, offsetDate: call.offsetDate, limit: limit
            )
            .filter { !(call.excludePinned && $0.pinned > 0) }
            let (parts, apiDialogs) = try dialogParts(dialogs, caller: caller, tx: tx)
            guard case .messages(let content) = parts else { throw APIError.internalError }
            let total = try tx.dialogCount(owner: caller.userId)
            if firstPage && total <= dialogs.count {
                return .dialogs(
                    .init(dialogs: apiDialogs, messages: content.messages, chats: content.chats, users: content.users))
            }
            return .dialogsSlice(
                .init(
                    count: Int32(clamping: total), dialogs: apiDialogs, messages: content.messages,
                    chats: content.chats, users: content.users))
        }
    }

    func getPeerDialogs(
        _ call: Api.functions.messages.getPeerDialogs, caller: Caller
    ) throws -> Api.messages.PeerDialogs {
        guard call.peers.count <= 100 else { throw APIError.limitInvalid }
        return try store.read { tx in
            var dialogs: [DialogRecord] = []
            var channels: (dialogs: [Api.Dialog], messages: [Api.Message], chats: [Api.Chat], users: [Api.User]) = (
                [], [], [], []
            )
            for case .inputDialogPeer(let input) in call.peers {
                if Self.isChannel(input.peer) {
                    if let parts = try channelPeerDialog(input.peer, caller: caller, tx: tx) {
                        channels.dialogs += parts.dialogs
                        channels.messages += parts.messages
                        channels.chats += parts.chats
                        channels.users += parts.users
                    }
                    continue
                }
                let peer = try resolve(input.peer, caller: caller, tx: tx)
                if let dialog = try tx.dialog(owner: caller.userId, peer: peer) { dialogs.append(dialog) }
            }
            let (parts, apiDialogs) = try dialogParts(dialogs, caller: caller, tx: tx)
            guard case .messages(let content) = parts, let state = try tx.updateState(userId: caller.userId) else {
                throw APIError.internalError
            }
            return .peerDialogs(
                .init(
                    dialogs: apiDialogs + channels.dialogs, messages: content.messages + channels.messages,
                    chats: content.chats + channels.chats, users: content.users + channels.users,
                    state: apiState(state)))
        }
    }

    func toggleDialogPin(_ call: Api.functions.messages.toggleDialogPin, caller: Caller) throws -> [UInt8] {
        guard case .inputDialogPeer(let input) = call.peer else { throw APIError.peerIdInvalid }
        if Self.isChannel(input.peer) {
            let found = try store.write { [self] tx throws -> Bool in
                guard let access = try channelAccess(input.peer, caller: caller, need: .member, tx: tx) else {
                    return false
                }
                return try tx.setChannelPinned(channelId: access.channel.id, userId: caller.userId, pinned: call.pinned)
            }
            guard found else { throw APIError.peerIdInvalid }
            return Reply.bool(true)
        }
        let found = try store.write { [self] tx in
            try tx.setPinned(
                owner: caller.userId, peer: try resolve(input.peer, caller: caller, tx: tx), pinned: call.pinned)
        }
        guard found else { throw APIError.peerIdInvalid }
        return Reply.bool(true)
    }
}
