import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Basic groups (core.telegram.org "Channels, supergroups, gigagroups and basic groups"): up to 200 members, each
/// with the group's messages in their own message box; every change is a service message
/// (`messageActionChatCreate`, `…AddUser`, `…DeleteUser`, `…EditTitle`) that lands in every member's box.
extension ServerBackend {
    /// Telegram's `chat_size_max` (also in `help.getConfig`).
    static let maximumChatMembers = 200

    func createChat(_ call: Api.functions.messages.createChat, caller: Caller) throws -> Api.messages.InvitedUsers {
        let title = call.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw APIError.badRequest("CHAT_TITLE_EMPTY") }
        try TextLimit.chatTitle.check(title)
        guard !call.users.isEmpty, call.users.count < Self.maximumChatMembers else {
            throw APIError.badRequest("USERS_TOO_FEW")
        }
        let date = now
        let chatId = try store.write { [self] tx throws -> Int64 in
            var members = [ChatMemberRecord(userId: caller.userId, inviter: caller.userId, date: date)]
            for input in call.users {
                guard let user = try resolve(input, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
                if !members.contains(where: { $0.userId == user.id }) {
                    members.append(ChatMemberRecord(userId: user.id, inviter: caller.userId, date: date))
                }
            }
            let id = try tx.nextValue(of: "chat")
            try tx.insert(ChatRecord(id: id, title: title, creator: caller.userId, date: date, members: members))
            return id
        }
        let userIds = try store.read { tx in try tx.chat(id: chatId)?.members.map(\.userId) ?? [] }
        let updates = try serviceMessage(
            .messageActionChatCreate(.init(title: title, users: userIds)), chatId: chatId, caller: caller)
        return .invitedUsers(.init(updates: updates, missingInvitees: []))
    }

    func addChatUser(_ call: Api.functions.messages.addChatUser, caller: Caller) throws -> Api.messages.InvitedUsers {
        let date = now
        let userId = try store.write { [self] tx throws -> Int64 in
            guard let chat = try tx.chat(id: call.chatId) else { throw APIError.chatIdInvalid }
            try Self.checkNotMigrated(chat)
            guard chat.members.contains(where: { $0.userId == caller.userId }),
                !Self.defaultForbids(chat, \.inviteUsers, userId: caller.userId)
            else {
                throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
            }
            guard let user = try resolve(call.userId, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
            guard chat.members.count < Self.maximumChatMembers else { throw APIError.badRequest("USERS_TOO_MUCH") }
            guard try tx.addMember(ChatMemberRecord(userId: user.id, inviter: caller.userId, date: date), to: chat.id)
            else {
                throw APIError.badRequest("USER_ALREADY_PARTICIPANT")
            }
            try tx.bumpVersion(chatId: chat.id)
            return user.id
        }
        let updates = try serviceMessage(
            .messageActionChatAddUser(.init(users: [userId])), chatId: call.chatId, caller: caller)
        return .invitedUsers(.init(updates: updates, missingInvitees: []))
    }

    func deleteChatUser(_ call: Api.functions.messages.deleteChatUser, caller: Caller) throws -> Api.Updates {
        let userId = try store.read { tx throws -> Int64 in
            guard let chat = try tx.chat(id: call.chatId) else { throw APIError.chatIdInvalid }
            guard let user = try resolve(call.userId, caller: caller, tx: tx),
                chat.members.contains(where: { $0.userId == user.id })
            else {
                throw APIError.badRequest("USER_NOT_PARTICIPANT")
            }
            guard user.id == caller.userId || chat.creator == caller.userId else {
                throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
            }
            return user.id
        }
        // The removed member gets the service message too, then leaves.
        let updates = try serviceMessage(
            .messageActionChatDeleteUser(.init(userId: userId)), chatId: call.chatId, caller: caller)
        try store.write { tx in
            try tx.removeMember(userId, from: call.chatId)
            try tx.bumpVersion(chatId: call.chatId)
        }
        return updates
    }

    func editChatTitle(_ call: Api.functions.messages.editChatTitle, caller: Caller) throws -> Api.Updates {
        let title = call.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw APIError.badRequest("CHAT_TITLE_EMPTY") }
        try TextLimit.chatTitle.check(title)
        try store.write { tx in
            guard let chat = try tx.chat(id: call.chatId) else { throw APIError.chatIdInvalid }
            try Self.checkNotMigrated(chat)
            guard chat.members.contains(where: { $0.userId == caller.userId }),
                !Self.defaultForbids(chat, \.changeInfo, userId: caller.userId)
            else {
                throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
            }
            guard chat.title != title else { throw APIError.badRequest("CHAT_NOT_MODIFIED") }
            try tx.setTitle(title, chatId: chat.id)
        }
        return try serviceMessage(.messageActionChatEditTitle(.init(title: title)), chatId: call.chatId, caller: caller)
    }

    /// A service message from the caller in every member's box; the caller's `updates`.
    private func serviceMessage(_ action: Api.MessageAction, chatId: Int64, caller: Caller) throws -> Api.Updates {
        let outgoing = Outgoing(text: "", randomId: Self.randomId(), action: action)
        let landed = try deliver([outgoing], to: .inputPeerChat(.init(chatId: chatId)), caller: caller)
        return try sentUpdates(landed, caller: caller)
    }

    func getFullChat(_ call: Api.functions.messages.getFullChat, caller: Caller) throws -> Api.messages.ChatFull {
        try store.read { tx in
            guard let chat = try tx.chat(id: call.chatId), chat.members.contains(where: { $0.userId == caller.userId })
            else {
                throw APIError.chatIdInvalid
            }
            let participants = chat.members.map { member -> Api.ChatParticipant in
                member.userId == chat.creator
                    ? .chatParticipantCreator(.init(userId: member.userId))
                    : .chatParticipant(.init(userId: member.userId, inviterId: member.inviter, date: member.date))
            }
            let invites = try inviteInfo(
                kind: .chat, id: chat.id, viewer: caller.userId, canManage: chat.creator == caller.userId, tx: tx)
            let full = Api.ChatFull.chatFull(
                .init(
                    id: chat.id, about: "",
                    participants: .chatParticipants(
                        .init(chatId: chat.id, participants: participants, version: chat.version)),
                    chatPhoto: chat.photo.flatMap { try? Api.Photo(tlBytes: $0) },
                    notifySettings: try storedNotifySettings(owner: caller.userId, kind: .chat, id: chat.id, tx: tx),
                    exportedInvite: invites.invite,
                    pinnedMsgId: try tx.topPinnedMessageId(owner: caller.userId, peer: .chat(chat.id)).map {
                        Int32(truncatingIfNeeded: $0)
                    }, requestsPending: invites.pending, recentRequesters: invites.recent,
                    availableReactions: Self.apiChatReactions(
                        try tx.chatReactions(peerKind: Self.chatReactionsKindChat, peerId: chat.id)),
                    reactionsLimit: Int32(
                        try tx.chatReactions(peerKind: Self.chatReactionsKindChat, peerId: chat.id)?.reactionsLimit
                            ?? Self.reactionsUniqueMax)))
            let users = try tx.users(ids: chat.members.map(\.userId)).sorted { $0.id < $1.id }.map {
                try apiUser($0, viewer: caller.userId, tx: tx)
            }
            return .chatFull(.init(fullChat: full, chats: [apiChat(chat, viewer: caller.userId, tx: tx)], users: users))
        }
    }

    /// `messages.getChats`: a group only for its members; one the caller was in (its messages are in their box)
    /// as `chatForbidden`, title only; nothing about any other.
    func getChats(_ call: Api.functions.messages.getChats, caller: Caller) throws -> Api.messages.Chats {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        return try store.read { tx in
            .chats(
                .init(
                    chats: try call.id.compactMap { id -> Api.Chat? in
                        guard let chat = try tx.chat(id: id) else { return nil }
                        if chat.members.contains(where: { $0.userId == caller.userId }) {
                            return apiChat(chat, viewer: caller.userId, tx: tx)
                        }
                        guard try tx.hasDialog(owner: caller.userId, peer: .chat(chat.id)) else { return nil }
                        return .chatForbidden(.init(id: chat.id, title: chat.title))
                    }))
        }
    }
}
