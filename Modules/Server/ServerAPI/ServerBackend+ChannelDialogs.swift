import ServerStore
import TLRuntime
import TelegramApi

/// Channel dialogs in `messages.getDialogs` and `getPeerDialogs`: a member's dialog of a channel is its membership
/// (read mark, pin) and the channel's newest message, with the channel's `pts` (core.telegram.org "Working with
/// updates": the client keeps one pts per channel, starting from the dialog's).
extension ServerBackend {
    /// `messages.getDialogs` for an account in channels: its message box's dialogs and its channels' merged in one
    /// order — pinned dialogs and channels first (most recently pinned first), then by their top message's date, newest first; at one date the box's
    /// before channels, each by id, highest first (message ids of a box and of a channel are different sequences,
    /// so only dates compare). A page after the first starts after `offset_peer`'s dialog when it names one of the
    /// caller's (Telethon and Telegram's clients pass the last dialog of the page before), else after `offset_id`
    /// (a box message) or before `offset_date`. `nil` for an account in no channel (the box's own paging applies).
    func dialogsWithChannels(
        _ call: Api.functions.messages.getDialogs, caller: Caller, tx: StoreTransaction
    ) throws -> Api.messages.Dialogs? {
        let channelCount = try tx.channelDialogCount(userId: caller.userId)
        guard channelCount > 0 else { return nil }
        let limit = Self.checkedLimit(call.limit == 0 ? 20 : call.limit)
        // Where the page starts, in the box and among the channels.
        var boxOffsetId: Int64 = 0
        var boxOffsetDate: Int32 = 0
        var channelCursor = ChannelDialogCursor.start
        if let access = try? channelAccess(call.offsetPeer, caller: caller, need: .member, tx: tx),
            let top = try tx.topChannelMessage(channelId: access.channel.id)
        {
            boxOffsetDate = top.date
            channelCursor = .after(date: top.date, channelId: access.channel.id)
        } else if let peer = try? resolve(call.offsetPeer, caller: caller, tx: tx),
            let dialog = try tx.dialog(owner: caller.userId, peer: peer),
            let top = try tx.message(owner: caller.userId, id: dialog.topMessage)
        {
            boxOffsetId = top.id
            channelCursor = .notNewerThan(top.date)
        } else if call.offsetId > 0, let top = try tx.message(owner: caller.userId, id: Int64(call.offsetId)) {
            boxOffsetId = top.id
            channelCursor = .notNewerThan(top.date)
        } else if call.offsetDate > 0 {
            boxOffsetDate = call.offsetDate
            channelCursor = .olderThan(call.offsetDate)
        }
        let firstPage = boxOffsetId == 0 && boxOffsetDate == 0 && channelCursor == .start
        let box = try tx.dialogs(owner: caller.userId, offsetId: boxOffsetId, offsetDate: boxOffsetDate, limit: limit)
            .filter { !(call.excludePinned && $0.pinned > 0) }
        let channels = try tx.channelDialogs(userId: caller.userId, after: channelCursor, pinned: false, limit: limit)
        // Pinned channels lead the first page with the box's pinned dialogs, most recently pinned first.
        let pinnedChannels =
            firstPage && !call.excludePinned
            ? try tx.channelDialogs(userId: caller.userId, pinned: true, limit: limit) : []
        enum Entry {
            case box(DialogRecord)
            case channel(ChannelDialogRecord)
        }
        // (date, rank, id), compared descending: at one date the box's dialogs (rank 1) before channels (rank 0).
        var keyed: [(key: (Int32, Int, Int64), entry: Entry)] = []
        var pinnedByOrder: [(order: Int64, entry: Entry)] = pinnedChannels.map { ($0.pinned, .channel($0)) }
        for dialog in box {
            if dialog.pinned > 0 {
                pinnedByOrder.append((dialog.pinned, .box(dialog)))
                continue
            }
            let date = try tx.message(owner: caller.userId, id: dialog.topMessage)?.date ?? 0
            keyed.append(((date, 1, dialog.topMessage), .box(dialog)))
        }
        for dialog in channels { keyed.append(((dialog.topDate, 0, dialog.channel.id), .channel(dialog))) }
        keyed.sort { $0.key > $1.key }
        let pinned = pinnedByOrder.sorted { $0.order > $1.order }.map(\.entry)
        let page = Array((pinned + keyed.map(\.entry)).prefix(limit))
        var boxDialogs: [DialogRecord] = []
        var channelDialogs: [ChannelDialogRecord] = []
        for entry in page {
            switch entry {
            case .box(let dialog): boxDialogs.append(dialog)
            case .channel(let dialog): channelDialogs.append(dialog)
            }
        }
        let (parts, boxApi) = try dialogParts(boxDialogs, caller: caller, tx: tx)
        guard case .messages(let content) = parts else { throw APIError.internalError }
        let channelParts = try channelDialogParts(channelDialogs, caller: caller, tx: tx)
        // The page in merged order.
        var apiDialogs: [Api.Dialog] = []
        var boxIterator = boxApi.makeIterator()
        var channelIterator = channelParts.dialogs.makeIterator()
        for entry in page {
            switch entry {
            case .box: if let next = boxIterator.next() { apiDialogs.append(next) }
            case .channel: if let next = channelIterator.next() { apiDialogs.append(next) }
            }
        }
        let knownUsers = Set(
            content.users.compactMap { user -> Int64? in
                if case .user(let u) = user { return u.id }
                return nil
            })
        let users =
            content.users
            + channelParts.users.filter { user in
                if case .user(let u) = user { return !knownUsers.contains(u.id) }
                return false
            }
        let messages = content.messages + channelParts.messages
        let chats = content.chats + channelParts.chats
        let total = try tx.dialogCount(owner: caller.userId) + channelCount
        if firstPage && total <= page.count {
            return .dialogs(.init(dialogs: apiDialogs, messages: messages, chats: chats, users: users))
        }
        return .dialogsSlice(
            .init(count: Int32(clamping: total), dialogs: apiDialogs, messages: messages, chats: chats, users: users))
    }

    /// Channel dialogs with their top messages, the channels and the users those messages show.
    func channelDialogParts(
        _ dialogs: [ChannelDialogRecord], caller: Caller, tx: StoreTransaction
    ) throws -> (dialogs: [Api.Dialog], messages: [Api.Message], chats: [Api.Chat], users: [Api.User]) {
        var apiDialogs: [Api.Dialog] = []
        var messages: [Api.Message] = []
        var chats: [Api.Chat] = []
        var shown: [ChannelMessageRecord] = []
        for dialog in dialogs {
            let access = ChannelAccess(channel: dialog.channel, member: dialog.member, viewer: caller.userId)
            let top = try tx.channelMessage(channelId: dialog.channel.id, id: dialog.topMessage)
            apiDialogs.append(try apiChannelDialog(access, top: top, pinned: dialog.pinned > 0, tx: tx))
            if let top {
                messages.append(apiChannelMessage(top, viewer: caller.userId, tx: tx))
                shown.append(top)
            }
            chats.append(try apiChannel(dialog.channel, member: dialog.member, viewer: caller.userId, tx: tx))
        }
        let users = try apiUsers(Self.users(shownIn: shown), viewer: caller.userId, tx: tx)
        return (apiDialogs, messages, chats, users)
    }

    /// The caller's dialog of the channel `input` names, for `messages.getPeerDialogs`; `nil` when they are not in it.
    func channelPeerDialog(
        _ input: Api.InputPeer, caller: Caller, tx: StoreTransaction
    ) throws -> (dialogs: [Api.Dialog], messages: [Api.Message], chats: [Api.Chat], users: [Api.User])? {
        guard let access = try channelAccess(input, caller: caller, need: .member, tx: tx),
            let member = access.member, let top = try tx.topChannelMessage(channelId: access.channel.id)
        else { return nil }
        let dialog = ChannelDialogRecord(
            channel: access.channel, member: member, topMessage: top.id, topDate: top.date, unreadCount: 0, pinned: 0)
        return try channelDialogParts([dialog], caller: caller, tx: tx)
    }
}
