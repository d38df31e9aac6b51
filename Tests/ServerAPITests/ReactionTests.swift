import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// Message reactions (core.telegram.org "Message reactions"): `messages.sendReaction` with Telegram's limits and
/// errors, `updateMessageReactions` pushed to everyone who sees the message (each with their own message id and
/// `chosen_order`), `message.reactions` in history, the lists, a chat's allowed reactions, and a restart.
@Suite struct ReactionTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func emoji(_ emoticon: String) -> Api.Reaction { .reactionEmoji(.init(emoticon: emoticon)) }

    /// The `updateMessageReactions` among `updates`.
    static func reactionUpdates(_ updates: Api.Updates) -> [Api.Update.Cons_updateMessageReactions] {
        guard case .updates(let body) = updates else { return [] }
        return body.updates.compactMap {
            if case .updateMessageReactions(let update) = $0 { return update }
            return nil
        }
    }

    /// `reactions` as emoji → (count, chosen_order).
    static func counts(_ reactions: Api.MessageReactions?) -> [String: (Int32, Int32?)] {
        guard case .messageReactions(let body)? = reactions else { return [:] }
        var result: [String: (Int32, Int32?)] = [:]
        for case .reactionCount(let count) in body.results {
            if case .reactionEmoji(let emoji) = count.reaction {
                result[emoji.emoticon] = (count.count, count.chosenOrder)
            }
        }
        return result
    }

    static func recentUsers(_ reactions: Api.MessageReactions?) -> [Int64] {
        guard case .messageReactions(let body)? = reactions else { return [] }
        return (body.recentReactions ?? []).compactMap {
            if case .messagePeerReaction(let reaction) = $0, case .peerUser(let user) = reaction.peerId {
                return user.userId
            }
            return nil
        }
    }

    static func reactions(in messages: [Api.Message], id: Int32) -> Api.MessageReactions? {
        for case .message(let message) in messages where message.id == id { return message.reactions }
        return nil
    }

    func react(
        _ harness: Harness, key: Int64, peer: Api.InputPeer, id: Int32, _ emoticons: [String], big: Bool = false
    ) async -> RPCResponse {
        await harness.call(
            Api.functions.messages.sendReaction(big: big, peer: peer, msgId: id, reaction: emoticons.map(Self.emoji)),
            key: key, dc: 2)
    }

    /// A private chat: Ben reacts to Ann's message; both get `updateMessageReactions` (Ben's with `chosen_order`, Ann's
    /// pushed with her own id), history shows it, unknown emoji and a second emoji are refused, a stranger cannot
    /// react or list, and an empty list removes it.
    @Test func aPrivateReactionReachesBothSides() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        _ = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let toAnn = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: toBen, message: "hi", randomId: 1), key: 1, dc: 2))
                == nil)
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 1, sessionId: 1001), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(1, bytes)
        }
        #expect(Self.error(await react(harness, key: 2, peer: toAnn, id: 1, ["🦖"])) == "REACTION_INVALID")
        #expect(Self.error(await react(harness, key: 2, peer: toAnn, id: 1, ["👍", "❤"])) == "REACTIONS_TOO_MANY")
        #expect(Self.error(await react(harness, key: 2, peer: toAnn, id: 9, ["👍"])) == "MESSAGE_ID_INVALID")
        let answer = await react(harness, key: 2, peer: toAnn, id: 1, ["👍"], big: true)
        guard case .result(let bytes) = answer else { Issue.record("\(answer)"); return }
        let mine = try #require(Self.reactionUpdates(try Api.Updates(tlBytes: bytes)).first)
        #expect(mine.msgId == 1 && Self.counts(mine.reactions)["👍"].map { $0.0 == 1 && $0.1 == 0 } == true)
        #expect(Self.recentUsers(mine.reactions) == [ben.id])
        let annSees = try #require(pushed.updates(for: 1).flatMap(Self.reactionUpdates).first)
        #expect(annSees.msgId == 1 && Self.counts(annSees.reactions)["👍"].map { $0.0 == 1 && $0.1 == nil } == true)
        if case .peerUser(let peer) = annSees.peer { #expect(peer.userId == ben.id) } else { Issue.record("peer") }
        // History: both sides.
        let annHistory = try await PinTests.history(harness, key: 1, peer: toBen)
        #expect(Self.counts(Self.reactions(in: annHistory, id: 1))["👍"]?.0 == 1)
        // The lists.
        let listed = try await harness.result(
            Api.functions.messages.getMessagesReactions(peer: toBen, id: [1]), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.counts(Self.reactionUpdates(listed).first?.reactions)["👍"]?.0 == 1)
        let who = try await harness.result(
            Api.functions.messages.getMessageReactionsList(peer: toBen, id: 1, limit: 10),
            as: Api.messages.MessageReactionsList.self, key: 1, dc: 2)
        guard case .messageReactionsList(let list) = who else { Issue.record("\(who)"); return }
        #expect(list.count == 1 && list.nextOffset == nil)
        if case .messagePeerReaction(let first)? = list.reactions.first {
            #expect(first.big && !first.my)
        } else {
            Issue.record("no reactor")
        }
        // A stranger: Cid's box has no such message with Ann (no access hash either).
        #expect(Self.error(await react(harness, key: 3, peer: toAnn, id: 1, ["👍"])) == "MESSAGE_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getMessageReactionsList(peer: toAnn, id: 1, limit: 10), key: 3, dc: 2))
                == "MESSAGE_ID_INVALID")
        // Removing: an empty list.
        let removed = await react(harness, key: 2, peer: toAnn, id: 1, [])
        guard case .result(let removedBytes) = removed else { Issue.record("\(removed)"); return }
        #expect(Self.counts(Self.reactionUpdates(try Api.Updates(tlBytes: removedBytes)).first?.reactions).isEmpty)
        #expect(Self.reactions(in: try await PinTests.history(harness, key: 1, peer: toBen), id: 1) == nil)
    }

    /// A basic group: the allowed set (`chatReactionsSome`, then `chatReactionsNone`) is enforced, a stranger is
    /// refused, `getMessageReactionsList` pages with `next_offset`, and the emoji filter works.
    @Test func aGroupsAllowedReactionsAndTheListOfWhoReacted() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        _ = try await harness.signUp("9996620004", name: "Dan", key: 4, dc: 2)
        let chatId = try await harness.createGroup(
            "Team",
            members: [
                .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)),
                .inputUser(.init(userId: cid.id, accessHash: cid.accessHash)),
            ], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        let sent = try await harness.result(
            Api.functions.messages.sendMessage(peer: group, message: "vote", randomId: 5), as: Api.Updates.self,
            key: 1, dc: 2)
        guard case .updateShortSentMessage(let short) = sent else { Issue.record("\(sent)"); return }
        let id = short.id
        let someHeart = Api.functions.messages.setChatAvailableReactions(
            peer: group, availableReactions: .chatReactionsSome(.init(reactions: [Self.emoji("❤"), Self.emoji("🔥")])))
        #expect(Self.error(await harness.call(someHeart, key: 1, dc: 2)) == nil)
        #expect(Self.error(await harness.call(someHeart, key: 1, dc: 2)) == "CHAT_NOT_MODIFIED")
        let full = try await harness.result(
            Api.functions.messages.getFullChat(chatId: chatId), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        if case .chatFull(let body) = full, case .chatFull(let chat) = body.fullChat,
            case .chatReactionsSome(let some)? = chat.availableReactions
        {
            #expect(some.reactions.count == 2 && chat.reactionsLimit == 11)
        } else {
            Issue.record("no chatReactionsSome in \(full)")
        }
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.setChatAvailableReactions(
                        peer: group, availableReactions: .chatReactionsSome(.init(reactions: [Self.emoji("🦖")]))),
                    key: 1, dc: 2))
                == "REACTION_INVALID")
        // Each box numbers the message the same way in a group made at once; Ben and Cid react with allowed emoji.
        #expect(Self.error(await react(harness, key: 2, peer: group, id: id, ["👍"])) == "REACTION_INVALID")
        #expect(Self.error(await react(harness, key: 2, peer: group, id: id, ["❤"])) == nil)
        #expect(Self.error(await react(harness, key: 3, peer: group, id: id, ["❤"])) == nil)
        #expect(Self.error(await react(harness, key: 1, peer: group, id: id, ["🔥"])) == nil)
        // Dan is no member.
        #expect(Self.error(await react(harness, key: 4, peer: group, id: id, ["❤"])) == "CHAT_RESTRICTED")
        let firstPage = try await harness.result(
            Api.functions.messages.getMessageReactionsList(peer: group, id: id, limit: 2),
            as: Api.messages.MessageReactionsList.self, key: 2, dc: 2)
        guard case .messageReactionsList(let first) = firstPage else { Issue.record("\(firstPage)"); return }
        #expect(first.count == 3 && first.reactions.count == 2 && first.nextOffset != nil)
        let secondPage = try await harness.result(
            Api.functions.messages.getMessageReactionsList(peer: group, id: id, offset: first.nextOffset, limit: 2),
            as: Api.messages.MessageReactionsList.self, key: 2, dc: 2)
        guard case .messageReactionsList(let second) = secondPage else { Issue.record("\(secondPage)"); return }
        #expect(second.reactions.count == 1 && second.nextOffset == nil)
        let hearts = try await harness.result(
            Api.functions.messages.getMessageReactionsList(peer: group, id: id, reaction: Self.emoji("❤"), limit: 10),
            as: Api.messages.MessageReactionsList.self, key: 2, dc: 2)
        guard case .messageReactionsList(let heartList) = hearts else { Issue.record("\(hearts)"); return }
        #expect(heartList.count == 2)
        // Counts as Ben sees them: ❤ 2 (his, chosen 0) first, then 🔥 1.
        let seen = try await harness.result(
            Api.functions.messages.getMessagesReactions(peer: group, id: [id]), as: Api.Updates.self, key: 2, dc: 2)
        let counts = Self.counts(Self.reactionUpdates(seen).first?.reactions)
        #expect(
            counts["❤"].map { $0.0 == 2 && $0.1 == 0 } == true && counts["🔥"].map { $0.0 == 1 && $0.1 == nil } == true)
        // None allowed: a new reaction is refused, removing still works.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.setChatAvailableReactions(
                        peer: group, availableReactions: .chatReactionsNone), key: 1, dc: 2)) == nil)
        #expect(Self.error(await react(harness, key: 2, peer: group, id: id, ["🔥"])) == "REACTION_INVALID")
        #expect(Self.error(await react(harness, key: 2, peer: group, id: id, [])) == nil)
    }

    /// A broadcast channel: only admins set reactions, `reactions_limit` caps the distinct emoji, subscribers see counts
    /// without the list.
    @Test func aChannelsLimitAndHiddenReactors() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let channel = try await ChannelTests.create(harness, key: 1, megagroup: false)
        #expect(await ChannelTests.invite(harness, key: 1, channel, [ben, cid]) == nil)
        let post = try await ChannelTests.post(harness, key: 1, channel, "news", randomId: 7)
        let (benChannel, _) = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: channel.id))
        let (cidChannel, _) = try #require(try await ChannelTests.fromDialogs(harness, key: 3, id: channel.id))
        let limitOne = Api.functions.messages.setChatAvailableReactions(
            peer: benChannel.peer, availableReactions: .chatReactionsAll(.init()), reactionsLimit: 1)
        #expect(Self.error(await harness.call(limitOne, key: 2, dc: 2)) == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.setChatAvailableReactions(
                        peer: channel.peer, availableReactions: .chatReactionsAll(.init()), reactionsLimit: 1),
                    key: 1, dc: 2)) == nil)
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 3, sessionId: 1003), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(3, bytes)
        }
        #expect(Self.error(await react(harness, key: 2, peer: benChannel.peer, id: post.id, ["👍"])) == nil)
        #expect(
            Self.error(await react(harness, key: 3, peer: cidChannel.peer, id: post.id, ["❤"])) == "REACTIONS_TOO_MANY")
        #expect(Self.error(await react(harness, key: 3, peer: cidChannel.peer, id: post.id, ["👍"])) == nil)
        let cidSaw = pushed.updates(for: 3).flatMap(Self.reactionUpdates)
        #expect(cidSaw.contains { Self.counts($0.reactions)["👍"]?.0 == 1 })
        let history = try await PinTests.history(harness, key: 3, peer: cidChannel.peer)
        let reactions = Self.reactions(in: history, id: post.id)
        #expect(Self.counts(reactions)["👍"].map { $0.0 == 2 && $0.1 == 0 } == true)
        if case .messageReactions(let body)? = reactions { #expect(!body.canSeeList && body.recentReactions == nil) }
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getMessageReactionsList(peer: cidChannel.peer, id: post.id, limit: 10),
                    key: 3, dc: 2)) == "BROADCAST_FORBIDDEN")
    }

    /// The standard set with its hash; the same hash answers `availableReactionsNotModified`.
    @Test func availableReactionsHaveAHash() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let all = try await harness.result(
            Api.functions.messages.getAvailableReactions(hash: 0), as: Api.messages.AvailableReactions.self, key: 1,
            dc: 2)
        guard case .availableReactions(let body) = all else { Issue.record("\(all)"); return }
        let emoji = body.reactions.map { reaction -> String in
            if case .availableReaction(let r) = reaction { return r.reaction }
            return ""
        }
        #expect(emoji.contains("👍") && emoji.contains("❤") && body.hash != 0)
        let again = try await harness.result(
            Api.functions.messages.getAvailableReactions(hash: body.hash), as: Api.messages.AvailableReactions.self,
            key: 1, dc: 2)
        guard case .availableReactionsNotModified = again else { Issue.record("\(again)"); return }
    }

    /// Reactions and a group's allowed set live in the database: a restarted server still shows and enforces them.
    @Test func reactionsSurviveARestart() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: ben.inputPeer, message: "hi", randomId: 1), key: 1)
                == nil)
        #expect(
            harness.error(
                Api.functions.messages.sendReaction(peer: ann.inputPeer, msgId: 1, reaction: [Self.emoji("🔥")]), key: 2)
                == nil)
        try harness.restart()
        let page = try harness.result(
            Api.functions.messages.getHistory(
                peer: ben.inputPeer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 1)
        guard case .messages(let body) = page else { Issue.record("\(page)"); return }
        #expect(Self.counts(Self.reactions(in: body.messages, id: 1))["🔥"].map { $0.0 == 1 && $0.1 == nil } == true)
        let list = try harness.result(
            Api.functions.messages.getMessageReactionsList(peer: ann.inputPeer, id: 1, limit: 5),
            as: Api.messages.MessageReactionsList.self, key: 2)
        guard case .messageReactionsList(let who) = list, case .messagePeerReaction(let mine)? = who.reactions.first
        else { Issue.record("\(list)"); return }
        #expect(mine.my && who.count == 1)
        // Deleted for everyone: the reactions go with the last copy.
        let globalId = try #require(try harness.store.read { tx in try tx.message(owner: ann.id, id: 1)?.globalId })
        #expect(try harness.store.read { tx in try tx.reactions(on: .shared(globalId: globalId)) }.count == 1)
        #expect(harness.error(Api.functions.messages.deleteMessages(revoke: true, id: [1]), key: 1) == nil)
        #expect(try harness.store.read { tx in try tx.reactions(on: .shared(globalId: globalId)) }.isEmpty)
    }
}
