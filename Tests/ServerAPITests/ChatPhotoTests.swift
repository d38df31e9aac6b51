import Foundation
import ImageCore
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// A basic group's photo (core.telegram.org method `messages.editChatPhoto`, constructors
/// `messageActionChatEditPhoto`, `chatPhoto`).
@Suite struct ChatPhotoTests {
    static func chat(in updates: Api.Updates) -> Api.Chat.Cons_chat? {
        guard case .updates(let body) = updates else { return nil }
        for case .chat(let chat) in body.chats { return chat }
        return nil
    }

    /// Ann (key 1), Ben (key 2) and Cid (key 3) signed up, and a basic group `title` of Ann's with Ben in it: Ben and
    /// the group as its creation showed it.
    static func annsGroupWithBen(
        _ harness: AttackHarness, title: String
    ) throws -> (ben: AttackHarness.Account, chat: Api.Chat.Cons_chat) {
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        _ = try harness.signUp("9996620003", name: "Cid", key: 3)
        let invited = try harness.result(
            Api.functions.messages.createChat(users: [ben.inputUser], title: title),
            as: Api.messages.InvitedUsers.self, key: 1)
        guard case .invitedUsers(let created) = invited, let chat = chat(in: created.updates) else {
            Issue.record("\(invited)")
            throw CancellationError()
        }
        return (ben, chat)
    }

    static func hasNoPhoto(_ chat: Api.Chat.Cons_chat?) -> Bool {
        guard case .chatPhotoEmpty? = chat?.photo else { return false }
        return true
    }

    static func action(in updates: Api.Updates) -> Api.MessageAction? {
        guard case .updates(let body) = updates else { return nil }
        for case .updateNewMessage(let new) in body.updates {
            if case .messageService(let service) = new.message { return service.action }
        }
        return nil
    }

    /// A member sets an uploaded picture: `messageActionChatEditPhoto` in every member's box, the group's `photo`
    /// (its id and stripped thumbnail) and `chatFull.chat_photo` show it, members download it through
    /// `inputPeerPhotoFileLocation` and nobody else does; it survives a restart; a group whose defaults take
    /// `change_info` refuses members (`CHAT_ADMIN_REQUIRED`) but not its creator; removing it is
    /// `messageActionChatDeletePhoto`, removing nothing `CHAT_NOT_MODIFIED`.
    @Test func aGroupPhotoIsSetShownServedAndRemoved() throws {
        let harness = try AttackHarness()
        let (ben, created) = try Self.annsGroupWithBen(harness, title: "Family")
        let chatId = created.id
        #expect(Self.hasNoPhoto(created))
        var bitmap = Bitmap(width: 160, height: 120)
        for y in 0..<120 { for x in 0..<160 { bitmap[x, y] = RGBA(r: UInt8(x), g: 40, b: UInt8(y), a: 255) } }
        #expect(
            harness.error(
                Api.functions.upload.saveFilePart(fileId: 78, filePart: 0, bytes: PNGCodec.encode(bitmap)), key: 2)
                == nil)
        let upload = Api.InputChatPhoto.inputChatUploadedPhoto(
            .init(file: .inputFile(.init(id: 78, parts: 1, name: "p.png", md5Checksum: ""))))
        #expect(
            harness.error(Api.functions.messages.editChatPhoto(chatId: chatId, photo: upload), key: 3)
                == "CHAT_ID_INVALID")

        // Ben, a member, sets it.
        let edited = try harness.result(
            Api.functions.messages.editChatPhoto(chatId: chatId, photo: upload), as: Api.Updates.self, key: 2)
        guard case .messageActionChatEditPhoto(let editPhoto)? = Self.action(in: edited),
            case .photo(let photo) = editPhoto.photo,
            case .chatPhoto(let shown)? = Self.chat(in: edited)?.photo
        else { Issue.record("\(edited)"); return }
        #expect(shown.photoId == photo.id && shown.strippedThumb != nil)

        // Ann's box has the service message; her view of the group shows the photo, also after a restart.
        try harness.restart()
        let history = try harness.result(
            Api.functions.messages.getHistory(
                peer: .inputPeerChat(.init(chatId: chatId)), offsetId: 0, offsetDate: 0, addOffset: 0, limit: 5,
                maxId: 0, minId: 0, hash: 0), as: Api.messages.Messages.self, key: 1)
        guard case .messages(let messages) = history else { Issue.record("\(history)"); return }
        let newest = messages.messages.first
        guard case .messageService(let service)? = newest, case .messageActionChatEditPhoto = service.action else {
            Issue.record("\(String(describing: newest))"); return
        }
        guard case .peerUser(let author)? = service.fromId else { Issue.record("\(service)"); return }
        #expect(author.userId == ben.id)
        let full = try harness.result(
            Api.functions.messages.getFullChat(chatId: chatId), as: Api.messages.ChatFull.self, key: 1)
        guard case .chatFull(let fullBody) = full, case .chatFull(let chatFull) = fullBody.fullChat,
            case .photo(let fullPhoto)? = chatFull.chatPhoto
        else { Issue.record("\(full)"); return }
        #expect(fullPhoto.id == photo.id)
        var chatsShown: [Api.Chat] = []
        if case .chats(let list) = try harness.result(
            Api.functions.messages.getChats(id: [chatId]), as: Api.messages.Chats.self, key: 1)
        {
            chatsShown = list.chats
        }
        guard case .chat(let annsView)? = chatsShown.first, case .chatPhoto(let annsPhoto) = annsView.photo else {
            Issue.record("\(chatsShown)"); return
        }
        #expect(annsPhoto.photoId == photo.id)

        // Members download it; a stranger naming the group gets nothing.
        let location = Api.functions.upload.getFile(
            location: .inputPeerPhotoFileLocation(
                .init(big: true, peer: .inputPeerChat(.init(chatId: chatId)), photoId: photo.id)), offset: 0,
            limit: 1024 * 1024)
        guard case .file(let file) = try harness.result(location, as: Api.upload.File.self, key: 1) else {
            Issue.record("no file"); return
        }
        #expect(file.bytes.starts(with: [0xFF, 0xD8]))
        #expect(harness.error(location, key: 3) == "FILE_ID_INVALID")

        // Defaults that take change_info bind Ben, not Ann (the creator).
        #expect(
            harness.error(
                Api.functions.messages.editChatDefaultBannedRights(
                    peer: .inputPeerChat(.init(chatId: chatId)),
                    bannedRights: .chatBannedRights(.init(changeInfo: true, untilDate: 0))), key: 1) == nil)
        #expect(
            harness.error(Api.functions.messages.editChatPhoto(chatId: chatId, photo: .inputChatPhotoEmpty), key: 2)
                == "CHAT_ADMIN_REQUIRED")
        let removed = try harness.result(
            Api.functions.messages.editChatPhoto(chatId: chatId, photo: .inputChatPhotoEmpty), as: Api.Updates.self,
            key: 1)
        guard case .messageActionChatDeletePhoto? = Self.action(in: removed) else { Issue.record("\(removed)"); return }
        #expect(Self.hasNoPhoto(Self.chat(in: removed)))
        #expect(
            harness.error(Api.functions.messages.editChatPhoto(chatId: chatId, photo: .inputChatPhotoEmpty), key: 1)
                == "CHAT_NOT_MODIFIED")
        #expect(harness.error(location, key: 1) == "FILE_ID_INVALID")
    }
}
