import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// Groups in common (core.telegram.org `messages.getCommonChats`, `userFull.common_chats_count`): basic groups and
/// supergroups both users are in — not a broadcast channel, not a group one of them left, not a group only one is in —
/// newest first, paged by `max_id`; a stranger shares nothing; the count survives a restart (it is read from the
/// memberships).
@Suite struct CommonChatsTests {
    static func createChat(
        _ harness: AttackHarness, key: Int64, _ users: [Api.InputUser], _ title: String
    ) throws
        -> Int64
    {
        let invited = try harness.result(
            Api.functions.messages.createChat(users: users, title: title), as: Api.messages.InvitedUsers.self, key: key)
        guard case .invitedUsers(let body) = invited, case .updates(let updates) = body.updates,
            case .chat(let chat)? = updates.chats.first
        else { throw AttackHarness.Refused(response: .notImplemented) }
        return chat.id
    }

    static func createChannel(
        _ harness: AttackHarness, key: Int64, megagroup: Bool, inviting users: [Api.InputUser]
    ) throws -> Int64 {
        let created = try harness.result(
            Api.functions.channels.createChannel(broadcast: !megagroup, megagroup: megagroup, title: "c", about: ""),
            as: Api.Updates.self, key: key)
        guard case .updates(let updates) = created, case .channel(let channel)? = updates.chats.first,
            let hash = channel.accessHash
        else { throw AttackHarness.Refused(response: .notImplemented) }
        _ = try harness.result(
            Api.functions.channels.inviteToChannel(
                channel: .inputChannel(.init(channelId: channel.id, accessHash: hash)), users: users),
            as: Api.messages.InvitedUsers.self, key: key)
        return channel.id
    }

    static func common(
        _ harness: AttackHarness, key: Int64, with user: Api.InputUser, maxId: Int64 = 0, limit: Int32
    )
        throws -> [Int64]
    {
        let answer = try harness.result(
            Api.functions.messages.getCommonChats(userId: user, maxId: maxId, limit: limit),
            as: Api.messages.Chats.self, key: key)
        let chats: [Api.Chat]
        switch answer {
        case .chats(let body): chats = body.chats
        case .chatsSlice(let body): chats = body.chats
        }
        return chats.compactMap { chat in
            switch chat {
            case .chat(let c): return c.id
            case .channel(let c): return c.id
            default: return nil
            }
        }
    }

    static func count(_ harness: AttackHarness, key: Int64, of user: Api.InputUser) throws -> Int32 {
        let full = try harness.result(
            Api.functions.users.getFullUser(id: user), as: Api.users.UserFull.self, key: key)
        guard case .userFull(let body) = full, case .userFull(let user) = body.fullUser else { return -1 }
        return user.commonChatsCount
    }

    @Test func sharedGroupsCountedListedAndPaged() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)
        let group = try Self.createChat(harness, key: 1, [ben.inputUser], "dinner")
        let supergroup = try Self.createChannel(harness, key: 1, megagroup: true, inviting: [ben.inputUser])
        _ = try Self.createChannel(harness, key: 1, megagroup: false, inviting: [ben.inputUser])
        let left = try Self.createChat(harness, key: 1, [ben.inputUser, cid.inputUser], "left")
        _ = try Self.createChat(harness, key: 1, [cid.inputUser], "without Ben")
        // Ben leaves one group: it is no longer shared.
        _ = try harness.result(
            Api.functions.messages.deleteChatUser(chatId: left, userId: .inputUserSelf), as: Api.Updates.self, key: 2)

        #expect(try Self.count(harness, key: 1, of: ben.inputUser) == 2)
        #expect(try Self.count(harness, key: 2, of: ann.inputUser) == 2)
        let all = try Self.common(harness, key: 1, with: ben.inputUser, limit: 100)
        #expect(Set(all) == [group, supergroup] && all == all.sorted(by: >), "\(all)")
        let first = try Self.common(harness, key: 1, with: ben.inputUser, limit: 1)
        let rest = try Self.common(harness, key: 1, with: ben.inputUser, maxId: try #require(first.last), limit: 100)
        #expect(first + rest == all)
        // Cid shares only the group Ben left with him: nothing; with Ann two groups.
        #expect(try Self.common(harness, key: 3, with: ben.inputUser, limit: 100).isEmpty)
        #expect(try Self.count(harness, key: 3, of: ben.inputUser) == 0)
        #expect(try Self.count(harness, key: 3, of: ann.inputUser) == 2)
        #expect(try Self.count(harness, key: 1, of: .inputUserSelf) == 0)
        // A wrong access hash names nobody.
        #expect(
            harness.error(
                Api.functions.messages.getCommonChats(
                    userId: .inputUser(.init(userId: ben.id, accessHash: ben.accessHash ^ 1)), maxId: 0, limit: 10),
                key: 3) == "USER_ID_INVALID")

        try harness.restart()
        #expect(try Self.count(harness, key: 1, of: ben.inputUser) == 2)
    }
}
