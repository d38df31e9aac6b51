import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Who made a chat's invite links (core.telegram.org method `messages.getAdminsWithInvites`): its creator sees
/// each admin with their live and revoked links and lists them with `messages.getExportedChatInvites`; no one else
/// may.
@Suite struct InviteAdminsTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    @Test func theCreatorSeesEveryAdminsLinks() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let team = try await ChannelTests.create(harness, key: 1, title: "Team", megagroup: true)
        #expect(await ChannelTests.invite(harness, key: 1, team, [(ben.id, ben.accessHash)]) == nil)
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        #expect(
            InviteLinkTests.error(
                await harness.call(
                    Api.functions.channels.editAdmin(
                        channel: team.input, userId: benUser,
                        adminRights: .chatAdminRights(.init(inviteUsers: true)), rank: ""), key: 1, dc: 2)) == nil)
        let bens = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: team.id)).0
        _ = try await InviteLinkTests.export(harness, key: 1, peer: team.peer)
        let first = try await InviteLinkTests.export(harness, key: 2, peer: bens.peer)
        _ = try await InviteLinkTests.export(harness, key: 2, peer: bens.peer)
        #expect(
            InviteLinkTests.error(
                await harness.call(
                    Api.functions.messages.editExportedChatInvite(revoked: true, peer: bens.peer, link: first.link),
                    key: 2, dc: 2)) == nil)

        let listed = try await harness.result(
            Api.functions.messages.getAdminsWithInvites(peer: team.peer),
            as: Api.messages.ChatAdminsWithInvites.self, key: 1, dc: 2)
        guard case .chatAdminsWithInvites(let body) = listed else { Issue.record("\(listed)"); return }
        let counts = body.admins.map { admin -> [Int64] in
            guard case .chatAdminWithInvites(let value) = admin else { return [] }
            return [value.adminId, Int64(value.invitesCount), Int64(value.revokedInvitesCount)]
        }
        #expect(counts == [[ben.id, 1, 1], [ann.id, 1, 0]], "\(counts)")
        let users = body.users.compactMap { user -> Int64? in
            if case .user(let value) = user { return value.id }
            return nil
        }
        #expect(Set(users) == [ann.id, ben.id])

        // Ann lists Ben's links; Ben may not ask who else made links.
        let bensLinks = try await harness.result(
            Api.functions.messages.getExportedChatInvites(
                revoked: true, peer: team.peer, adminId: benUser, limit: 10),
            as: Api.messages.ExportedChatInvites.self, key: 1, dc: 2)
        guard case .exportedChatInvites(let revoked) = bensLinks else { Issue.record("\(bensLinks)"); return }
        #expect(revoked.invites.compactMap(InviteLinkTests.exported).map(\.link) == [first.link])
        #expect(
            InviteLinkTests.error(
                await harness.call(Api.functions.messages.getAdminsWithInvites(peer: bens.peer), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
    }
}
