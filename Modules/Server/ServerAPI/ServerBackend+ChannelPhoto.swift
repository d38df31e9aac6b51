import ServerStore
import TLRuntime
import TelegramApi

/// A channel's photo (core.telegram.org method `channels.editPhoto`): an uploaded picture made into Telegram's sizes
/// as any photo is, or a photo the caller already has; each change a service message in the channel.
extension ServerBackend {
    /// `channels.editPhoto`: admins with `change_info` (`CHAT_ADMIN_REQUIRED`); `inputChatUploadedPhoto` (a still
    /// picture: `PHOTO_INVALID` for video), `inputChatPhoto` (`PHOTO_ID_INVALID` for one the caller cannot name) or
    /// `inputChatPhotoEmpty` (`CHAT_NOT_MODIFIED` without a photo). A `messageActionChatEditPhoto` (or
    /// `…DeletePhoto`) in the channel, pushed to the members online; `channel.photo` and `channelFull.chat_photo` show
    /// it, `upload.getFile` serves it through `inputPeerPhotoFileLocation` to whoever may read the channel.
    func editChannelPhoto(_ call: Api.functions.channels.editPhoto, caller: Caller) throws -> Api.Updates {
        // Rights first: nobody else gets a picture processed.
        try store.read { [self] tx in
            let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
            guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
        }
        let photo = try chatPhoto(call.photo, caller: caller)
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                guard photo != nil || access.channel.photo != nil else {
                    throw APIError.badRequest("CHAT_NOT_MODIFIED")
                }
                try tx.setPhoto(photo?.serialized(), channelId: access.channel.id)
                guard let channel = try tx.channel(id: access.channel.id) else { throw APIError.internalError }
                let action: Api.MessageAction =
                    photo.map { .messageActionChatEditPhoto(.init(photo: $0)) } ?? .messageActionChatDeletePhoto
                let posts = try appendChannelMessages(
                    [Outgoing(text: "", randomId: Self.randomId(), action: action)], channel: channel,
                    sender: caller.userId, date: date, tx: tx)
                guard let stored = try tx.channel(id: channel.id) else { throw APIError.internalError }
                pushes = try newChannelMessagePushes(posts, channel: stored, date: date, tx: tx)
                return try channelAnswer(
                    posts, randomIds: [], extra: [.updateChannel(.init(channelId: stored.id))], channel: stored,
                    caller: caller, date: date, tx: tx)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// The picture a group's or channel's photo change names (core.telegram.org `InputChatPhoto`): none
    /// (`inputChatPhotoEmpty`), a still picture just uploaded (`PHOTO_INVALID` for a video), or one of the caller's
    /// photos by id and access hash (`PHOTO_ID_INVALID` for one the caller cannot name).
    func chatPhoto(_ input: Api.InputChatPhoto, caller: Caller) throws -> Api.Photo? {
        switch input {
        case .inputChatPhotoEmpty:
            return nil
        case .inputChatUploadedPhoto(let uploaded):
            guard uploaded.video == nil, uploaded.videoEmojiMarkup == nil, let file = uploaded.file else {
                throw APIError.badRequest("PHOTO_INVALID")
            }
            return try makePhoto(file, caller: caller)
        case .inputChatPhoto(let chosen):
            guard case .inputPhoto(let input) = chosen.id,
                let record = try store.read({ tx in try tx.photo(id: input.id) }),
                record.accessHash == input.accessHash
            else {
                throw APIError.badRequest("PHOTO_ID_INVALID")
            }
            return apiPhoto(record)
        }
    }
}
