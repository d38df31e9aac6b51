import ServerStore
import TLRuntime
import TelegramApi

/// A basic group's photo (core.telegram.org method `messages.editChatPhoto`): an uploaded picture made into
/// Telegram's sizes as any photo is, or a photo the caller already has; each change a service message in every
/// member's box, as a channel's is (`channels.editPhoto`).
extension ServerBackend {
    /// `messages.editChatPhoto`: any member unless the group's default rights take `change_info`
    /// (`CHAT_ADMIN_REQUIRED`; never from its creator); `CHAT_ID_INVALID` for a group the caller is not in or that
    /// became a supergroup. `inputChatUploadedPhoto` (a still picture: `PHOTO_INVALID` for video), `inputChatPhoto`
    /// (`PHOTO_ID_INVALID` for one the caller cannot name) or `inputChatPhotoEmpty` (`CHAT_NOT_MODIFIED` without a
    /// photo). `messageActionChatEditPhoto` (or `…DeletePhoto`) from the caller; `chat.photo` and
    /// `chatFull.chat_photo` show it, and `upload.getFile` serves it through `inputPeerPhotoFileLocation` to members.
    func editChatPhoto(_ call: Api.functions.messages.editChatPhoto, caller: Caller) throws -> Api.Updates {
        // Rights first: nobody else gets a picture processed.
        try store.read { tx in try Self.checkMayEditPhoto(try tx.chat(id: call.chatId), caller: caller) }
        let photo = try chatPhoto(call.photo, caller: caller)
        try store.write { tx in
            let chat = try tx.chat(id: call.chatId)
            try Self.checkMayEditPhoto(chat, caller: caller)
            guard let chat, photo != nil || chat.photo != nil else { throw APIError.badRequest("CHAT_NOT_MODIFIED") }
            try tx.setPhoto(photo?.serialized(), chatId: chat.id)
        }
        let action: Api.MessageAction =
            photo.map { .messageActionChatEditPhoto(.init(photo: $0)) } ?? .messageActionChatDeletePhoto
        let outgoing = Outgoing(text: "", randomId: Self.randomId(), action: action)
        let landed = try deliver([outgoing], to: .inputPeerChat(.init(chatId: call.chatId)), caller: caller)
        return try sentUpdates(landed, caller: caller)
    }

    private static func checkMayEditPhoto(_ chat: ChatRecord?, caller: Caller) throws {
        guard let chat, chat.members.contains(where: { $0.userId == caller.userId }) else {
            throw APIError.chatIdInvalid
        }
        try checkNotMigrated(chat)
        guard !defaultForbids(chat, \.changeInfo, userId: caller.userId) else {
            throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
        }
    }
}
