import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Pinned messages in every kind of peer (core.telegram.org methods `messages.updatePinnedMessage`,
/// `messages.unpinAllMessages`): `updatePinnedMessages` in each box's pts sequence, `updatePinnedChannelMessages` in a
/// channel's, the `messageActionPinMessage` service message, the `pinned` flag and `pinned_msg_id`.
@Suite struct PinTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func updates(_ updates: Api.Updates) -> [Api.Update] {
        if case .updates(let body) = updates { return body.updates }
        return []
    }

    /// The `updatePinnedMessages` among `updates`.
    static func pins(_ updates: [Api.Update]) -> [Api.Update.Cons_updatePinnedMessages] {
        updates.compactMap {
            if case .updatePinnedMessages(let pin) = $0 { return pin }
            return nil
        }
    }

    static func channelPins(_ updates: [Api.Update]) -> [Api.Update.Cons_updatePinnedChannelMessages] {
        updates.compactMap {
            if case .updatePinnedChannelMessages(let pin) = $0 { return pin }
            return nil
        }
    }

    /// The `messageActionPinMessage` service messages among `updates`: (message, the id it replies to).
    static func pinServices(_ updates: [Api.Update]) -> [(Api.Message.Cons_messageService, Int32?)] {
        updates.compactMap { update -> (Api.Message.Cons_messageService, Int32?)? in
            let message: Api.Message
            switch update {
            case .updateNewMessage(let new): message = new.message
            case .updateNewChannelMessage(let new): message = new.message
            default: return nil
            }
            guard case .messageService(let service) = message, case .messageActionPinMessage = service.action else {
                return nil
            }
            if case .messageReplyHeader(let header)? = service.replyTo { return (service, header.replyToMsgId) }
            return (service, nil)
        }
    }

    static func pinnedId(ofUser user: Api.InputUser, _ harness: Harness, key: Int64) async throws -> Int32? {
        let full = try await harness.result(
            Api.functions.users.getFullUser(id: user), as: Api.users.UserFull.self, key: key, dc: 2)
        guard case .userFull(let body) = full, case .userFull(let inner) = body.fullUser else { return nil }
        return inner.pinnedMsgId
    }

    static func history(_ harness: Harness, key: Int64, peer: Api.InputPeer) async throws -> [Api.Message] {
        let page = try await harness.result(
            Api.functions.messages.getHistory(
                peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 50, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: key, dc: 2)
        switch page {
        case .messages(let body): return body.messages
        case .messagesSlice(let body): return body.messages
        case .channelMessages(let body): return body.messages
        case .messagesNotModified: return []
        }
    }

    static func isPinned(_ messages: [Api.Message], id: Int32) -> Bool? {
        for case .message(let message) in messages where message.id == id { return message.pinned }
        return nil
    }

    /// A private chat: Ann pins for both sides (Ben gets `updatePinnedMessages` and the service message pushed, sees
    /// the flag and `pinned_msg_id`); pinning again changes nothing; Ben pins one-sidedly (no service message, Ann
    /// unaffected); Ann's unpin reaches both; `unpinAllMessages` clears the rest.
    @Test func aPrivateChatPinReachesBothSidesUnlessOneSided() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let annUser = Api.InputUser.inputUser(.init(userId: ann.id, accessHash: ann.accessHash))
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let toAnn = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: toBen, message: "hello", randomId: 1), key: 1, dc: 2))
                == nil)
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 2, sessionId: 1002), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(2, bytes)
        }
        let pin = try await harness.result(
            Api.functions.messages.updatePinnedMessage(silent: true, peer: toBen, id: 1), as: Api.Updates.self,
            key: 1, dc: 2)
        let answered = Self.updates(pin)
        let annPin = try #require(Self.pins(answered).first)
        #expect(annPin.pinned && annPin.messages == [1] && annPin.pts == 2 && annPin.ptsCount == 1)
        if case .peerUser(let peer) = annPin.peer { #expect(peer.userId == ben.id) } else { Issue.record("peer") }
        let service = try #require(Self.pinServices(answered).first)
        #expect(service.1 == 1 && service.0.silent && service.0.out && service.0.id == 2)
        // Ben's session got his own pin update (his copy, his pts) and the service message.
        let benUpdates = pushed.updates(for: 2).flatMap(Self.updates)
        let benPin = try #require(Self.pins(benUpdates).first)
        #expect(benPin.pinned && benPin.messages == [1] && benPin.pts == 2)
        if case .peerUser(let peer) = benPin.peer { #expect(peer.userId == ann.id) } else { Issue.record("peer") }
        #expect(Self.pinServices(benUpdates).first?.1 == 1)
        // Ben's pts log has it too: getDifference from before the pin names it, with Ann among the users.
        let difference = try await harness.result(
            Api.functions.updates.getDifference(pts: 1, date: 0, qts: 0), as: Api.updates.Difference.self, key: 2,
            dc: 2)
        guard case .difference(let caughtUp) = difference else { Issue.record("\(difference)"); return }
        #expect(Self.pins(caughtUp.otherUpdates).first?.messages == [1])
        #expect(
            caughtUp.users.contains {
                if case .user(let user) = $0 { return user.id == ann.id }
                return false
            })
        #expect(Self.isPinned(try await Self.history(harness, key: 2, peer: toAnn), id: 1) == true)
        #expect(try await Self.pinnedId(ofUser: annUser, harness, key: 2) == 1)
        #expect(try await Self.pinnedId(ofUser: benUser, harness, key: 1) == 1)
        // Pinning what is pinned: nothing happens, no service message.
        let again = try await harness.result(
            Api.functions.messages.updatePinnedMessage(peer: toBen, id: 1), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.updates(again).isEmpty)
        // Ben writes and pins his message for himself only.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: toAnn, message: "mine", randomId: 2), key: 2, dc: 2))
                == nil)
        let oneSided = try await harness.result(
            Api.functions.messages.updatePinnedMessage(pmOneside: true, peer: toAnn, id: 3), as: Api.Updates.self,
            key: 2, dc: 2)
        #expect(Self.pins(Self.updates(oneSided)).first?.messages == [3])
        #expect(Self.pinServices(Self.updates(oneSided)).isEmpty)
        #expect(try await Self.pinnedId(ofUser: benUser, harness, key: 1) == 1)
        #expect(try await Self.pinnedId(ofUser: annUser, harness, key: 2) == 3)
        // Ann unpins message 1: gone on both sides, no service message.
        let unpin = try await harness.result(
            Api.functions.messages.updatePinnedMessage(unpin: true, peer: toBen, id: 1), as: Api.Updates.self,
            key: 1, dc: 2)
        #expect(Self.pins(Self.updates(unpin)).first.map { !$0.pinned && $0.messages == [1] } == true)
        #expect(Self.pinServices(Self.updates(unpin)).isEmpty)
        #expect(try await Self.pinnedId(ofUser: benUser, harness, key: 1) == nil)
        #expect(try await Self.pinnedId(ofUser: annUser, harness, key: 2) == 3)
        #expect(
            Self.pins(pushed.updates(for: 2).flatMap(Self.updates)).contains { !$0.pinned && $0.messages == [1] })
        // Ben clears his pins.
        let cleared = try await harness.result(
            Api.functions.messages.unpinAllMessages(peer: toAnn), as: Api.messages.AffectedHistory.self, key: 2,
            dc: 2)
        guard case .affectedHistory(let affected) = cleared else { Issue.record("\(cleared)"); return }
        #expect(affected.ptsCount == 1 && affected.offset == 0)
        #expect(try await Self.pinnedId(ofUser: annUser, harness, key: 2) == nil)
        // A message the conversation does not have.
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: toBen, id: 99), key: 1, dc: 2))
                == "MESSAGE_ID_INVALID")
        // The service message itself cannot be pinned.
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: toBen, id: 2), key: 1, dc: 2))
                == "MESSAGE_ID_INVALID")
    }

    /// A basic group: a member's pin reaches every member's box; `pinned_msg_id` in getFullChat; unpin all.
    @Test func aBasicGroupPinReachesEveryMember() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let chatId = try await harness.createGroup(
            "Group",
            members: [
                .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)),
                .inputUser(.init(userId: cid.id, accessHash: cid.accessHash)),
            ], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: group, message: "agenda", randomId: 1), key: 1, dc: 2))
                == nil)
        // Each box has the create message (1) then "agenda" (2). Ben pins it.
        let pin = try await harness.result(
            Api.functions.messages.updatePinnedMessage(peer: group, id: 2), as: Api.Updates.self, key: 2, dc: 2)
        #expect(Self.pins(Self.updates(pin)).first?.messages == [2])
        #expect(Self.pinServices(Self.updates(pin)).first?.1 == 2)
        let fullChat = { (key: Int64) async throws -> Int32? in
            let full = try await harness.result(
                Api.functions.messages.getFullChat(chatId: chatId), as: Api.messages.ChatFull.self, key: key, dc: 2)
            guard case .chatFull(let body) = full, case .chatFull(let inner) = body.fullChat else { return nil }
            return inner.pinnedMsgId
        }
        #expect(try await fullChat(3) == 2)
        #expect(Self.isPinned(try await Self.history(harness, key: 3, peer: group), id: 2) == true)
        // Cid's box has Ben's service message, replying to his copy.
        let cids = try await Self.history(harness, key: 3, peer: group)
        #expect(
            cids.contains {
                if case .messageService(let s) = $0, case .messageActionPinMessage = s.action,
                    case .messageReplyHeader(let header)? = s.replyTo
                {
                    return header.replyToMsgId == 2 && !s.out
                }
                return false
            })
        // The pinned filter of messages.search lists it.
        let found = try await harness.result(
            Api.functions.messages.search(
                peer: group, q: "", filter: .inputMessagesFilterPinned, minDate: 0, maxDate: 0, offsetId: 0,
                addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 3, dc: 2)
        guard case .messages(let list) = found else { Issue.record("\(found)"); return }
        #expect(list.messages.count == 1)
        _ = try await harness.result(
            Api.functions.messages.unpinAllMessages(peer: group), as: Api.messages.AffectedHistory.self, key: 1, dc: 2)
        #expect(try await fullChat(3) == nil)
        #expect(try await fullChat(2) == nil)
    }

    /// Channels: only admins pin in a broadcast channel (`CHAT_ADMIN_REQUIRED`), members in a supergroup unless
    /// restricted from pinning; a pin is one `updatePinnedChannelMessages` in the channel's log plus the service
    /// message, pushed to the members online and found again by getChannelDifference; `pinned_msg_id` in
    /// getFullChannel; strangers see nothing (`CHANNEL_INVALID`).
    @Test func channelPinsFollowTheRightsAndTheChannelsPts() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        _ = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let news = try await ChannelTests.create(harness, key: 1, title: "News", megagroup: false)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: news.input, users: [benUser]), key: 1, dc: 2))
                == nil)
        let (post, postPts) = try await ChannelTests.post(harness, key: 1, news, "read this", randomId: 1)
        let bens = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: news.id)).0
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: bens.peer, id: post), key: 2, dc: 2)
            )
                == "CHAT_ADMIN_REQUIRED")
        // Cid, a stranger, with a made-up hash.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.updatePinnedMessage(
                        peer: Channel(id: news.id, accessHash: 42).peer, id: post), key: 3, dc: 2))
                == "CHANNEL_INVALID")
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 2, sessionId: 1002), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(2, bytes)
        }
        let pin = Self.updates(
            try await harness.result(
                Api.functions.messages.updatePinnedMessage(peer: news.peer, id: post), as: Api.Updates.self, key: 1,
                dc: 2))
        let logged = try #require(Self.channelPins(pin).first)
        #expect(logged.pinned && logged.channelId == news.id && logged.messages == [post])
        #expect(logged.pts == postPts + 1 && logged.ptsCount == 1)
        let service = try #require(Self.pinServices(pin).first)
        #expect(service.1 == post && service.0.post && service.0.fromId == nil)
        let benUpdates = pushed.updates(for: 2).flatMap(Self.updates)
        #expect(Self.channelPins(benUpdates).first?.messages == [post])
        #expect(Self.pinServices(benUpdates).first?.1 == post)
        let full = try await harness.result(
            Api.functions.channels.getFullChannel(channel: bens.input), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        guard case .chatFull(let body) = full, case .channelFull(let channelFull) = body.fullChat else {
            Issue.record("\(full)"); return
        }
        #expect(channelFull.pinnedMsgId == post)
        // `inputMessagePinned` names the newest pinned message.
        let byPin = try await harness.result(
            Api.functions.channels.getMessages(channel: bens.input, id: [.inputMessagePinned]),
            as: Api.messages.Messages.self, key: 2, dc: 2)
        guard case .channelMessages(let pinnedPage) = byPin,
            case .message(let pinnedMessage)? = pinnedPage.messages.first
        else { Issue.record("\(byPin)"); return }
        #expect(pinnedMessage.id == post && pinnedMessage.pinned)
        #expect(Self.isPinned(try await Self.history(harness, key: 2, peer: bens.peer), id: post) == true)
        guard
            case .channelDifference(let difference) = try await ChannelTests.difference(
                harness, key: 2, bens, pts: postPts)
        else { Issue.record("expected channelDifference"); return }
        #expect(Self.channelPins(difference.otherUpdates).first?.messages == [post])
        #expect(difference.newMessages.count == 1)
        // Not a message of the channel, or its creation service message.
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: news.peer, id: 999), key: 1, dc: 2))
                == "MESSAGE_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: news.peer, id: 1), key: 1, dc: 2))
                == "MESSAGE_ID_INVALID")
        let unpinned = try await harness.result(
            Api.functions.messages.unpinAllMessages(peer: news.peer), as: Api.messages.AffectedHistory.self, key: 1,
            dc: 2)
        guard case .affectedHistory(let affected) = unpinned else { Issue.record("\(unpinned)"); return }
        #expect(affected.ptsCount == 1 && affected.pts == logged.pts + 2)
        let after = try await harness.result(
            Api.functions.channels.getFullChannel(channel: bens.input), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        if case .chatFull(let b) = after, case .channelFull(let f) = b.fullChat {
            #expect(f.pinnedMsgId == nil)
        } else {
            Issue.record("\(after)")
        }
        // A supergroup: members pin, unless restricted from it.
        let team = try await ChannelTests.create(harness, key: 1, megagroup: true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: team.input, users: [benUser]), key: 1, dc: 2))
                == nil)
        let (note, _) = try await ChannelTests.post(harness, key: 1, team, "note", randomId: 2)
        let benTeam = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: team.id)).0
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.updatePinnedMessage(silent: true, peer: benTeam.peer, id: note), key: 2,
                    dc: 2)) == nil)
        let restrict = Api.functions.channels.editBanned(
            channel: team.input, participant: .inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash)),
            bannedRights: .chatBannedRights(.init(pinMessages: true, untilDate: 0)))
        #expect(Self.error(await harness.call(restrict, key: 1, dc: 2)) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.updatePinnedMessage(unpin: true, peer: benTeam.peer, id: note), key: 2,
                    dc: 2)) == "CHAT_ADMIN_REQUIRED")
    }

    /// Pins are stored: after a restart the flag and `pinned_msg_id` are still there, in a private chat and a
    /// channel.
    @Test func pinsSurviveARestart() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: ben.inputPeer, message: "hi", randomId: 1), key: 1)
                == nil)
        #expect(harness.error(Api.functions.messages.updatePinnedMessage(peer: ben.inputPeer, id: 1), key: 1) == nil)
        let created = try harness.result(
            Api.functions.channels.createChannel(megagroup: true, title: "Team", about: ""), as: Api.Updates.self,
            key: 1)
        guard case .updates(let body) = created, case .channel(let shown)? = body.chats.first,
            let hash = shown.accessHash
        else { Issue.record("\(created)"); return }
        let team = Channel(id: shown.id, accessHash: hash)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: team.peer, message: "rules", randomId: 2), key: 1)
                == nil)
        #expect(harness.error(Api.functions.messages.updatePinnedMessage(peer: team.peer, id: 2), key: 1) == nil)
        try harness.restart()
        let user = try harness.result(
            Api.functions.users.getFullUser(id: ann.inputUser), as: Api.users.UserFull.self, key: 2)
        guard case .userFull(let userBody) = user, case .userFull(let userFull) = userBody.fullUser else {
            Issue.record("\(user)"); return
        }
        #expect(userFull.pinnedMsgId == 1)
        let channel = try harness.result(
            Api.functions.channels.getFullChannel(channel: team.input), as: Api.messages.ChatFull.self, key: 1)
        guard case .chatFull(let channelBody) = channel, case .channelFull(let channelFull) = channelBody.fullChat
        else { Issue.record("\(channel)"); return }
        #expect(channelFull.pinnedMsgId == 2)
        let page = try harness.result(
            Api.functions.channels.getMessages(channel: team.input, id: [.inputMessageID(.init(id: 2))]),
            as: Api.messages.Messages.self, key: 1)
        guard case .channelMessages(let messages) = page, case .message(let pinned)? = messages.messages.first else {
            Issue.record("\(page)"); return
        }
        #expect(pinned.pinned)
    }
}
