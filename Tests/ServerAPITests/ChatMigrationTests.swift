import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// A basic group becoming a supergroup (core.telegram.org method `messages.migrateChat`): the members and the creator
/// carried over, the two service messages, `migrated_to` / `deactivated` on the group and `migrated_from_*` on the
/// supergroup, the group read-only from then on, and all of it after a restart.
@Suite struct ChatMigrationTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func actions(_ updates: [Api.Update]) -> [Api.MessageAction] {
        updates.compactMap { update -> Api.MessageAction? in
            switch update {
            case .updateNewChannelMessage(let new):
                if case .messageService(let service) = new.message { return service.action }
            case .updateNewMessage(let new):
                if case .messageService(let service) = new.message { return service.action }
            default: break
            }
            return nil
        }
    }

    @Test func aGroupBecomesASupergroupWithItsMembersAndStopsTakingWrites() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let chatId = try await harness.createGroup(
            "Club",
            members: [
                .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)),
                .inputUser(.init(userId: cid.id, accessHash: cid.accessHash)),
            ], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: group, message: "before", randomId: 1), key: 2, dc: 2))
                == nil)
        #expect(
            await harness.call(Api.functions.messages.migrateChat(chatId: chatId), key: 2, dc: 2)
                == .error(code: 403, message: "CHAT_ADMIN_REQUIRED"))
        let migrated = try await harness.result(
            Api.functions.messages.migrateChat(chatId: chatId), as: Api.Updates.self, key: 1, dc: 2)
        guard case .updates(let answer) = migrated, let channel = ChannelTests.channel(in: answer.chats) else {
            Issue.record("\(migrated)"); return
        }
        #expect(channel.megagroup && channel.creator && channel.title == "Club" && channel.participantsCount == 3)
        let actions = Self.actions(answer.updates)
        guard case .messageActionChannelMigrateFrom(let from)? = actions.first,
            case .messageActionChatMigrateTo(let to)? = actions.last
        else { Issue.record("\(actions)"); return }
        #expect(from.chatId == chatId && from.title == "Club" && to.channelId == channel.id)
        let oldChat = answer.chats.compactMap { chat -> Api.Chat.Cons_chat? in
            if case .chat(let body) = chat { return body }
            return nil
        }.first
        #expect(oldChat?.deactivated == true)
        // Ben is a member of the supergroup with his own hash, nothing unread, and sees where it came from.
        let (bens, dialog) = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: channel.id))
        #expect(dialog.unreadCount == 0)
        let full = try await harness.result(
            Api.functions.channels.getFullChannel(channel: bens.input), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        guard case .chatFull(let fullBody) = full, case .channelFull(let channelFull) = fullBody.fullChat else {
            Issue.record("\(full)"); return
        }
        // Ben's box: the creation (1), "before" (2), the migration (3).
        #expect(channelFull.migratedFromChatId == chatId && channelFull.migratedFromMaxId == 3)
        let participant = try await harness.result(
            Api.functions.channels.getParticipant(
                channel: bens.input, participant: .inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash))),
            as: Api.channels.ChannelParticipant.self, key: 2, dc: 2)
        guard case .channelParticipant(let found) = participant, case .channelParticipantCreator = found.participant
        else { Issue.record("\(participant)"); return }
        // Ben's view of the old group: deactivated, migrated to the supergroup under his own hash.
        let chats = try await harness.result(
            Api.functions.messages.getChats(id: [chatId]), as: Api.messages.Chats.self, key: 2, dc: 2)
        guard case .chats(let list) = chats, case .chat(let shown)? = list.chats.first,
            case .inputChannel(let target)? = shown.migratedTo
        else { Issue.record("\(chats)"); return }
        #expect(shown.deactivated && target.channelId == channel.id && target.accessHash == bens.accessHash)
        // The group takes no more writes; its history stays.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: group, message: "after", randomId: 2), key: 2, dc: 2))
                == "CHAT_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.editChatTitle(chatId: chatId, title: "New"), key: 1, dc: 2))
                == "CHAT_ID_INVALID")
        #expect(
            Self.error(await harness.call(Api.functions.messages.migrateChat(chatId: chatId), key: 1, dc: 2))
                == "CHAT_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getHistory(
                        peer: group, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0),
                    key: 2, dc: 2)) == nil)
        // The supergroup takes them instead.
        #expect(try await ChannelTests.post(harness, key: 2, bens, "after", randomId: 3).id == 2)
        // A stranger sees neither.
        _ = try await harness.signUp("9996620004", name: "Dan", key: 4, dc: 2)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.getFullChannel(channel: Channel(id: channel.id, accessHash: 1).input),
                    key: 4, dc: 2)) == "CHANNEL_INVALID")
    }

    /// The migration is stored: after a restart the supergroup still names the group and the group stays read-only.
    @Test func theMigrationSurvivesARestart() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let invited = try harness.result(
            Api.functions.messages.createChat(users: [ben.inputUser], title: "Club"),
            as: Api.messages.InvitedUsers.self,
            key: 1)
        guard case .invitedUsers(let body) = invited, case .updates(let created) = body.updates,
            case .chat(let chat)? = created.chats.first
        else { Issue.record("no chat"); return }
        let migrated = try harness.result(
            Api.functions.messages.migrateChat(chatId: chat.id), as: Api.Updates.self, key: 1)
        guard case .updates(let answer) = migrated, let channel = ChannelTests.channel(in: answer.chats),
            let hash = channel.accessHash
        else { Issue.record("\(migrated)"); return }
        try harness.restart()
        let full = try harness.result(
            Api.functions.channels.getFullChannel(channel: Channel(id: channel.id, accessHash: hash).input),
            as: Api.messages.ChatFull.self, key: 1)
        guard case .chatFull(let fullBody) = full, case .channelFull(let channelFull) = fullBody.fullChat else {
            Issue.record("\(full)"); return
        }
        #expect(channelFull.migratedFromChatId == chat.id && channelFull.participantsCount == 2)
        #expect(
            harness.error(
                Api.functions.messages.sendMessage(
                    peer: .inputPeerChat(.init(chatId: chat.id)), message: "x", randomId: 9),
                key: 2) == "CHAT_ID_INVALID")
    }
}
