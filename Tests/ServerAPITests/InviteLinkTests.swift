import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Invite links of channels and basic groups (core.telegram.org "Invite links and join requests"): export, check,
/// import, limits and expiry, join requests approved and declined, the admin's lists, revoking and deleting, and
/// wrong hashes counted.
@Suite struct InviteLinkTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func exported(_ invite: Api.ExportedChatInvite) -> Api.ExportedChatInvite.Cons_chatInviteExported? {
        if case .chatInviteExported(let body) = invite { return body }
        return nil
    }

    static func hash(_ link: String) -> String { String(link.dropFirst("https://t.me/+".count)) }

    static func export(
        _ harness: Harness, key: Int64, peer: Api.InputPeer, usageLimit: Int32? = nil, requestNeeded: Bool = false,
        expireDate: Int32? = nil, title: String? = nil
    ) async throws -> Api.ExportedChatInvite.Cons_chatInviteExported {
        let invite = try await harness.result(
            Api.functions.messages.exportChatInvite(
                requestNeeded: requestNeeded, peer: peer, expireDate: expireDate, usageLimit: usageLimit, title: title),
            as: Api.ExportedChatInvite.self, key: key, dc: 2)
        return try #require(Self.exported(invite))
    }

    static func serviceActions(_ updates: Api.Updates) -> [Api.MessageAction] {
        guard case .updates(let body) = updates else { return [] }
        return body.updates.compactMap { update -> Api.MessageAction? in
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

    /// A private supergroup's link: unguessable (22 base64url characters), checked by a stranger as `chatInvite`,
    /// imported with `messageActionChatJoinedByLink` naming its admin, then `chatInviteAlready`; its usage limit
    /// spent answers `INVITE_HASH_EXPIRED`; only admins who may invite make links.
    @Test func aSupergroupLinkIsCheckedAndImportedUntilUsedUp() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        _ = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        _ = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let team = try await ChannelTests.create(harness, key: 1, title: "Team", megagroup: true)
        let link = try await Self.export(harness, key: 1, peer: team.peer, usageLimit: 1, title: "for Ben")
        #expect(link.link.hasPrefix("https://t.me/+") && link.adminId == ann.id && link.usageLimit == 1)
        #expect(link.title == "for Ben" && !link.permanent && !link.revoked)
        let hash = Self.hash(link.link)
        #expect(hash.count == 22 && hash.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let other = try await Self.export(harness, key: 1, peer: team.peer)
        #expect(other.link != link.link)
        let check = try await harness.result(
            Api.functions.messages.checkChatInvite(hash: hash), as: Api.ChatInvite.self, key: 2, dc: 2)
        guard case .chatInvite(let invite) = check else { Issue.record("\(check)"); return }
        #expect(invite.channel && invite.megagroup && !invite.broadcast && invite.title == "Team")
        #expect(invite.participantsCount == 1 && !invite.requestNeeded)
        let joined = try await harness.result(
            Api.functions.messages.importChatInvite(hash: hash), as: Api.messages.ChatInviteJoinResult.self, key: 2,
            dc: 2)
        guard case .chatInviteJoinResultOk(let ok) = joined else { Issue.record("\(joined)"); return }
        guard case .messageActionChatJoinedByLink(let byLink)? = Self.serviceActions(ok.updates).first else {
            Issue.record("\(ok.updates)"); return
        }
        #expect(byLink.inviterId == ann.id)
        let again = try await harness.result(
            Api.functions.messages.checkChatInvite(hash: hash), as: Api.ChatInvite.self, key: 2, dc: 2)
        guard case .chatInviteAlready = again else { Issue.record("\(again)"); return }
        #expect(
            Self.error(await harness.call(Api.functions.messages.importChatInvite(hash: hash), key: 2, dc: 2))
                == "USER_ALREADY_PARTICIPANT")
        // Used once: Cid is refused.
        #expect(
            Self.error(await harness.call(Api.functions.messages.checkChatInvite(hash: hash), key: 3, dc: 2))
                == "INVITE_HASH_EXPIRED")
        #expect(
            Self.error(await harness.call(Api.functions.messages.importChatInvite(hash: hash), key: 3, dc: 2))
                == "INVITE_HASH_EXPIRED")
        // Ben, a plain member, may not make links; nor Cid, a stranger (the supergroup stays invisible to him).
        let bens = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: team.id)).0
        #expect(
            Self.error(await harness.call(Api.functions.messages.exportChatInvite(peer: bens.peer), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.exportChatInvite(peer: Channel(id: team.id, accessHash: 7).peer), key: 3,
                    dc: 2)) == "CHANNEL_INVALID")
        // The admin's list shows the link used once; the importers list shows Ben.
        let list = try await harness.result(
            Api.functions.messages.getExportedChatInvites(peer: team.peer, adminId: .inputUserSelf, limit: 10),
            as: Api.messages.ExportedChatInvites.self, key: 1, dc: 2)
        guard case .exportedChatInvites(let invites) = list else { Issue.record("\(list)"); return }
        #expect(invites.count == 2 && invites.invites.compactMap(Self.exported).contains { $0.usage == 1 })
        let importers = try await harness.result(
            Api.functions.messages.getChatInviteImporters(
                peer: team.peer, link: link.link, offsetDate: 0, offsetUser: .inputUserEmpty, limit: 10),
            as: Api.messages.ChatInviteImporters.self, key: 1, dc: 2)
        guard case .chatInviteImporters(let who) = importers else { Issue.record("\(importers)"); return }
        #expect(who.count == 1 && who.users.count == 1)
        // Settings checked as Telegram checks them.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.exportChatInvite(peer: team.peer, usageLimit: 100_000), key: 1, dc: 2))
                == "USAGE_LIMIT_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.exportChatInvite(peer: team.peer, expireDate: 1_000), key: 1, dc: 2))
                == "EXPIRE_DATE_INVALID")
    }

    /// A link that asks first: importing answers `INVITE_REQUEST_SENT` and lists the request (the admin's sessions get
    /// `updatePendingJoinRequests`); declined it is gone, approved the requester joins with
    /// `messageActionChatJoinedByRequest`. Revoking a link ends it
    /// (`INVITE_HASH_EXPIRED`); only revoked links are deleted; unknown hashes are `INVITE_HASH_INVALID` and counted
    /// until `FLOOD_WAIT_X`.
    @Test func joinRequestsRevokingAndGuessing() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let news = try await ChannelTests.create(harness, key: 1, title: "News", megagroup: false)
        let asking = try await Self.export(harness, key: 1, peer: news.peer, requestNeeded: true)
        #expect(asking.requestNeeded)
        let hash = Self.hash(asking.link)
        // Ann's other session is online: each request and each answer tells her how many wait.
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 1, sessionId: 1001), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(1, bytes)
        }
        let pending = {
            pushed.updates(for: 1).compactMap { updates -> Int32? in
                guard case .updates(let body) = updates,
                    case .updatePendingJoinRequests(let requests)? = body.updates.first
                else { return nil }
                return requests.requestsPending
            }
        }
        for key in [Int64(2), 3] {
            #expect(
                Self.error(await harness.call(Api.functions.messages.importChatInvite(hash: hash), key: key, dc: 2))
                    == "INVITE_REQUEST_SENT")
        }
        let requests = try await harness.result(
            Api.functions.messages.getChatInviteImporters(
                requested: true, peer: news.peer, offsetDate: 0, offsetUser: .inputUserEmpty, limit: 10),
            as: Api.messages.ChatInviteImporters.self, key: 1, dc: 2)
        guard case .chatInviteImporters(let waiting) = requests else { Issue.record("\(requests)"); return }
        #expect(waiting.count == 2)
        #expect(
            waiting.importers.allSatisfy {
                if case .chatInviteImporter(let importer) = $0 { return importer.requested }
                return false
            })
        let cidUser = Api.InputUser.inputUser(.init(userId: cid.id, accessHash: cid.accessHash))
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.hideChatJoinRequest(peer: news.peer, userId: cidUser), key: 1, dc: 2))
                == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.hideChatJoinRequest(peer: news.peer, userId: cidUser), key: 1, dc: 2))
                == "HIDE_REQUESTER_MISSING")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.hideChatJoinRequest(approved: true, peer: news.peer, userId: benUser),
                    key: 1, dc: 2)) == nil)
        #expect(try await ChannelTests.fromDialogs(harness, key: 2, id: news.id) != nil)
        #expect(try await ChannelTests.fromDialogs(harness, key: 3, id: news.id) == nil)
        #expect(pending() == [1, 2, 1, 0])
        // Revoke, then delete.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.deleteExportedChatInvite(peer: news.peer, link: asking.link), key: 1, dc: 2))
                == "INVITE_REVOKED_MISSING")
        let revoked = try await harness.result(
            Api.functions.messages.editExportedChatInvite(revoked: true, peer: news.peer, link: asking.link),
            as: Api.messages.ExportedChatInvite.self, key: 1, dc: 2)
        guard case .exportedChatInvite(let body) = revoked else { Issue.record("\(revoked)"); return }
        #expect(Self.exported(body.invite)?.revoked == true)
        #expect(
            Self.error(await harness.call(Api.functions.messages.importChatInvite(hash: hash), key: 3, dc: 2))
                == "INVITE_HASH_EXPIRED")
        let revokedList = try await harness.result(
            Api.functions.messages.getExportedChatInvites(
                revoked: true, peer: news.peer, adminId: .inputUserSelf, limit: 10),
            as: Api.messages.ExportedChatInvites.self, key: 1, dc: 2)
        guard case .exportedChatInvites(let listed) = revokedList else { Issue.record("\(revokedList)"); return }
        #expect(listed.count == 1)
        #expect(
            await harness.call(
                Api.functions.messages.deleteExportedChatInvite(peer: news.peer, link: asking.link), key: 1, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        // A primary link revoked is replaced.
        let primary = try await harness.result(
            Api.functions.messages.exportChatInvite(legacyRevokePermanent: true, peer: news.peer),
            as: Api.ExportedChatInvite.self, key: 1, dc: 2)
        let primaryLink = try #require(Self.exported(primary))
        #expect(primaryLink.permanent)
        let replaced = try await harness.result(
            Api.functions.messages.editExportedChatInvite(revoked: true, peer: news.peer, link: primaryLink.link),
            as: Api.messages.ExportedChatInvite.self, key: 1, dc: 2)
        guard case .exportedChatInviteReplaced(let swap) = replaced else { Issue.record("\(replaced)"); return }
        #expect(Self.exported(swap.newInvite)?.permanent == true && Self.exported(swap.invite)?.revoked == true)
        // Guessing: wrong hashes answer INVITE_HASH_INVALID, then FLOOD_WAIT_X.
        var answers: [String] = []
        for n in 0..<25 {
            answers.append(
                Self.error(
                    await harness.call(
                        Api.functions.messages.checkChatInvite(hash: "guess\(n)AAAAAAAAAAAAAAAA"), key: 3, dc: 2))
                    ?? "ok")
        }
        #expect(answers.prefix(20).allSatisfy { $0 == "INVITE_HASH_INVALID" })
        #expect(answers.last?.hasPrefix("FLOOD_WAIT_") == true)
    }

    /// A basic group's link (made by its creator): a stranger joins, every member's box gets
    /// `messageActionChatJoinedByLink`; a request approved adds `messageActionChatJoinedByRequest` from the joiner.
    @Test func aBasicGroupLinkAddsTheJoinerToEveryBox() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        _ = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        _ = try await harness.signUp("9996620004", name: "Dan", key: 4, dc: 2)
        let chatId = try await harness.createGroup(
            "Group", members: [.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        #expect(
            Self.error(await harness.call(Api.functions.messages.exportChatInvite(peer: group), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        let link = try await Self.export(harness, key: 1, peer: group)
        let check = try await harness.result(
            Api.functions.messages.checkChatInvite(hash: Self.hash(link.link)), as: Api.ChatInvite.self, key: 3, dc: 2)
        guard case .chatInvite(let invite) = check else { Issue.record("\(check)"); return }
        #expect(!invite.channel && invite.title == "Group" && invite.participantsCount == 2)
        let joined = try await harness.result(
            Api.functions.messages.importChatInvite(hash: Self.hash(link.link)),
            as: Api.messages.ChatInviteJoinResult.self, key: 3, dc: 2)
        guard case .chatInviteJoinResultOk(let ok) = joined,
            case .messageActionChatJoinedByLink(let byLink)? = Self.serviceActions(ok.updates).first
        else { Issue.record("\(joined)"); return }
        #expect(byLink.inviterId == ann.id)
        let full = try await harness.result(
            Api.functions.messages.getFullChat(chatId: chatId), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        guard case .chatFull(let fullBody) = full, case .chatFull(let chatFull) = fullBody.fullChat,
            case .chatParticipants(let participants) = chatFull.participants
        else { Issue.record("\(full)"); return }
        #expect(participants.participants.count == 3)
        // Dan asks through a link that asks first; Ann approves.
        let asking = try await Self.export(harness, key: 1, peer: group, requestNeeded: true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.importChatInvite(hash: Self.hash(asking.link)), key: 4, dc: 2))
                == "INVITE_REQUEST_SENT")
        let danUser = try await harness.result(
            Api.functions.messages.getChatInviteImporters(
                requested: true, peer: group, offsetDate: 0, offsetUser: .inputUserEmpty, limit: 10),
            as: Api.messages.ChatInviteImporters.self, key: 1, dc: 2)
        guard case .chatInviteImporters(let waiting) = danUser, case .user(let dan)? = waiting.users.first,
            let danHash = dan.accessHash
        else { Issue.record("\(danUser)"); return }
        let approved = try await harness.result(
            Api.functions.messages.hideChatJoinRequest(
                approved: true, peer: group, userId: .inputUser(.init(userId: dan.id, accessHash: danHash))),
            as: Api.Updates.self, key: 1, dc: 2)
        guard case .messageActionChatJoinedByRequest? = Self.serviceActions(approved).first else {
            Issue.record("\(approved)"); return
        }
    }

    /// Links are stored: after a restart a link exported before still admits, its use counted.
    @Test func aLinkSurvivesARestart() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        _ = try harness.signUp("9996620002", name: "Ben", key: 2)
        let created = try harness.result(
            Api.functions.channels.createChannel(megagroup: true, title: "Team", about: ""), as: Api.Updates.self,
            key: 1)
        guard case .updates(let body) = created, case .channel(let shown)? = body.chats.first,
            let hash = shown.accessHash
        else { Issue.record("\(created)"); return }
        let team = Channel(id: shown.id, accessHash: hash)
        let invite = try harness.result(
            Api.functions.messages.exportChatInvite(peer: team.peer, usageLimit: 2), as: Api.ExportedChatInvite.self,
            key: 1)
        let link = try #require(Self.exported(invite))
        try harness.restart()
        #expect(harness.error(Api.functions.messages.importChatInvite(hash: Self.hash(link.link)), key: 2) == nil)
        let list = try harness.result(
            Api.functions.messages.getExportedChatInvites(peer: team.peer, adminId: .inputUserSelf, limit: 10),
            as: Api.messages.ExportedChatInvites.self, key: 1)
        guard case .exportedChatInvites(let invites) = list, let first = invites.invites.first.flatMap(Self.exported)
        else { Issue.record("\(list)"); return }
        #expect(first.usage == 1 && first.usageLimit == 2 && first.link == link.link)
    }
}
