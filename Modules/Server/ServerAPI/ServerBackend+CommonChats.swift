import ServerStore
import TelegramApi

/// Groups in common (core.telegram.org `messages.getCommonChats`, `userFull.common_chats_count`): the basic groups and
/// supergroups the caller and another user are both members of — only groups the caller is in, so nothing a stranger
/// could not see.
extension ServerBackend {
    /// The most groups one `messages.getCommonChats` answers (Telegram-iOS asks 100 at a time).
    static let commonChatsLimit = 100

    /// How many groups the caller and `userId` share (0 with oneself, as Telegram answers for Saved Messages).
    func commonChatsCount(_ caller: Int64, _ userId: Int64, tx: StoreTransaction) throws -> Int32 {
        guard userId != caller else { return 0 }
        let (chats, channels) = try tx.commonChats(caller, userId)
        return Int32(clamping: chats.count + channels.count)
    }

    /// `messages.getCommonChats`: the shared groups, highest id first, those below `max_id` when it is not 0, at most
    /// `limit` (1–100); an unknown user or a wrong access hash is `USER_ID_INVALID`.
    func getCommonChats(_ call: Api.functions.messages.getCommonChats, caller: Caller) throws -> Api.messages.Chats {
        let limit = Int(min(max(call.limit, 1), Int32(Self.commonChatsLimit)))
        return try store.read { tx in
            guard let user = try resolve(call.userId, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
            guard user.id != caller.userId else { return .chats(.init(chats: [])) }
            let (chats, channels) = try tx.commonChats(caller.userId, user.id)
            var all = chats.map { (id: $0, channel: false) } + channels.map { (id: $0, channel: true) }
            all.sort { $0.id > $1.id }
            let page = all.filter { call.maxId == 0 || $0.id < call.maxId }.prefix(limit)
            var shown: [Api.Chat] = []
            for entry in page {
                if entry.channel {
                    if let channel = try tx.channel(id: entry.id) {
                        shown.append(try apiChannel(channel, viewer: caller.userId, tx: tx))
                    }
                } else if let chat = try tx.chat(id: entry.id) {
                    shown.append(apiChat(chat, viewer: caller.userId, tx: tx))
                }
            }
            return .chats(.init(chats: shown))
        }
    }
}
