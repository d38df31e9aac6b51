import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// Supergroups and broadcast channels through `ServerAPIHandler` (core.telegram.org "Channels, supergroups, gigagroups
/// and basic groups", "Working with updates"): creation, per-channel message ids and pts, getChannelDifference's four
/// answers, who may see and post, and the input checks.
@Suite struct ChannelTests {
    typealias Harness = ServerBackendTests.Harness

    struct Channel {
        let id: Int64
        let accessHash: Int64
        var input: Api.InputChannel { .inputChannel(.init(channelId: id, accessHash: accessHash)) }
        var peer: Api.InputPeer { .inputPeerChannel(.init(channelId: id, accessHash: accessHash)) }
    }

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func channel(in chats: [Api.Chat]) -> Api.Chat.Cons_channel? {
        for case .channel(let channel) in chats { return channel }
        return nil
    }

    static func parts(_ updates: Api.Updates) -> (updates: [Api.Update], chats: [Api.Chat]) {
        if case .updates(let body) = updates { return (body.updates, body.chats) }
        return ([], [])
    }

    /// Creates a channel as `key`'s account; returns it with the creator's access hash.
    static func create(_ harness: Harness, key: Int64, title: String = "Team", megagroup: Bool) async throws -> Channel
    {
        let updates = try await harness.result(
            Api.functions.channels.createChannel(
                broadcast: !megagroup, megagroup: megagroup, title: title, about: "about"),
            as: Api.Updates.self, key: key, dc: 2)
        let channel = try #require(Self.channel(in: Self.parts(updates).chats))
        return Channel(id: channel.id, accessHash: try #require(channel.accessHash))
    }

    /// Invites `users` (id and access hash as `key`'s account sees them) into `channel` as its creator `key`;
    /// returns the error name, nil on success.
    static func invite(
        _ harness: Harness, key: Int64, _ channel: Channel, _ users: [(id: Int64, accessHash: Int64)]
    ) async -> String? {
        error(
            await harness.call(
                Api.functions.channels.inviteToChannel(
                    channel: channel.input,
                    users: users.map { .inputUser(.init(userId: $0.id, accessHash: $0.accessHash)) }), key: key, dc: 2))
    }

    /// Sends `text` to the channel; returns the new message's id and the channel pts it got.
    static func post(
        _ harness: Harness, key: Int64, _ channel: Channel, _ text: String, randomId: Int64
    ) async throws
        -> (id: Int32, pts: Int32)
    {
        let updates = try await harness.result(
            Api.functions.messages.sendMessage(peer: channel.peer, message: text, randomId: randomId),
            as: Api.Updates.self,
            key: key, dc: 2)
        for case .updateNewChannelMessage(let new) in parts(updates).updates {
            if case .message(let message) = new.message { return (message.id, new.pts) }
        }
        throw ServerBackendTests.Failure(response: .notImplemented)
    }

    static func difference(
        _ harness: Harness, key: Int64, _ channel: Channel, pts: Int32, limit: Int32 = 100
    ) async throws
        -> Api.updates.ChannelDifference
    {
        try await harness.result(
            Api.functions.updates.getChannelDifference(
                channel: channel.input, filter: .channelMessagesFilterEmpty, pts: pts, limit: limit),
            as: Api.updates.ChannelDifference.self, key: key, dc: 2)
    }

    /// The channel as `key`'s account finds it among its dialogs (with that account's own access hash).
    static func fromDialogs(
        _ harness: Harness, key: Int64, id: Int64
    ) async throws -> (Channel, Api.Dialog.Cons_dialog)? {
        let dialogs = try await harness.result(
            Api.functions.messages.getDialogs(
                offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 100, hash: 0),
            as: Api.messages.Dialogs.self, key: key, dc: 2)
        let (list, chats): ([Api.Dialog], [Api.Chat])
        switch dialogs {
        case .dialogs(let d): (list, chats) = (d.dialogs, d.chats)
        case .dialogsSlice(let d): (list, chats) = (d.dialogs, d.chats)
        case .dialogsNotModified: return nil
        }
        guard
            let shown = chats.compactMap({ chat -> Api.Chat.Cons_channel? in
                if case .channel(let c) = chat, c.id == id { return c }
                return nil
            }).first, let hash = shown.accessHash
        else { return nil }
        for case .dialog(let dialog) in list {
            if case .peerChannel(let peer) = dialog.peer, peer.channelId == id {
                return (Channel(id: id, accessHash: hash), dialog)
            }
        }
        return nil
    }

    @Test func aSupergroupNumbersItsMessagesAndMovesItsOwnPts() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let created = try await harness.result(
            Api.functions.channels.createChannel(megagroup: true, title: "  Team  ", about: "about"),
            as: Api.Updates.self,
            key: 1, dc: 2)
        let (updates, chats) = Self.parts(created)
        let shown = try #require(Self.channel(in: chats))
        #expect(shown.megagroup && !shown.broadcast && shown.creator && !shown.left && shown.title == "Team")
        #expect(shown.participantsCount == 1)
        #expect(
            updates.contains {
                if case .updateChannel = $0 { return true }; return false
            })
        let service = updates.compactMap { update -> (Int32, Api.MessageAction)? in
            if case .updateNewChannelMessage(let new) = update, case .messageService(let m) = new.message {
                return (new.pts, m.action)
            }
            return nil
        }
        #expect(service.count == 1 && service.first?.0 == 1)
        if case .messageActionChannelCreate(let action)? = service.first?.1 {
            #expect(action.title == "Team")
        } else {
            Issue.record("not messageActionChannelCreate")
        }
        let channel = Channel(id: shown.id, accessHash: try #require(shown.accessHash))
        // Messages 2, 3, 4 with pts 2, 3, 4: the channel's own sequences, whatever the account's.
        for n in 0..<3 {
            let (id, pts) = try await Self.post(harness, key: 1, channel, "m\(n)", randomId: Int64(100 + n))
            #expect(id == Int32(2 + n) && pts == Int32(2 + n))
        }
        let state = try await harness.result(
            Api.functions.updates.getState(), as: Api.updates.State.self, key: 1, dc: 2)
        #expect(ServerBackendTests.pts(of: state) == 0)
        // A random_id used twice is refused as Telegram does.
        #expect(
            await harness.call(
                Api.functions.messages.sendMessage(peer: channel.peer, message: "again", randomId: 100), key: 1, dc: 2)
                == .error(code: 500, message: "RANDOM_ID_DUPLICATE"))
        guard case .channelDifference(let difference) = try await Self.difference(harness, key: 1, channel, pts: 1)
        else {
            Issue.record("expected channelDifference"); return
        }
        #expect(difference.final && difference.pts == 4 && difference.newMessages.count == 3)
        guard case .channelDifferenceEmpty(let empty) = try await Self.difference(harness, key: 1, channel, pts: 4)
        else {
            Issue.record("expected channelDifferenceEmpty"); return
        }
        #expect(empty.final && empty.pts == 4 && empty.timeout != nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.updates.getChannelDifference(
                        channel: channel.input, filter: .channelMessagesFilterEmpty, pts: 9, limit: 10),
                    key: 1, dc: 2)) == "PERSISTENT_TIMESTAMP_INVALID")
        // Edits and deletions move the channel's pts too and come back in the difference.
        let edit = await harness.call(
            Api.functions.messages.editMessage(peer: channel.peer, id: 2, message: "m0 edited"), key: 1, dc: 2)
        #expect(Self.error(edit) == nil)
        let deleted = try await harness.result(
            Api.functions.channels.deleteMessages(channel: channel.input, id: [3, 4]),
            as: Api.messages.AffectedMessages.self,
            key: 1, dc: 2)
        guard case .affectedMessages(let affected) = deleted else {
            Issue.record("expected affectedMessages, got \(deleted)"); return
        }
        #expect(affected.pts == 7 && affected.ptsCount == 2)
        guard case .channelDifference(let later) = try await Self.difference(harness, key: 1, channel, pts: 4) else {
            Issue.record("expected channelDifference"); return
        }
        #expect(later.pts == 7 && later.newMessages.isEmpty && later.otherUpdates.count == 2)
        if case .updateEditChannelMessage(let edited)? = later.otherUpdates.first, case .message(let m) = edited.message
        {
            #expect(m.message == "m0 edited" && m.editDate != nil)
        } else {
            Issue.record("expected updateEditChannelMessage")
        }
        if case .updateDeleteChannelMessages(let gone)? = later.otherUpdates.last { #expect(gone.messages == [3, 4]) }
    }

    /// 250 posts read back 100 at a time with `final` false until the last page; a gap over 1,000 answers
    /// `channelDifferenceTooLong` with the dialog (and its pts) and the newest messages.
    @Test func channelDifferencePagesByLimitAndSaysTooLongPastTheGap() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        for n in 0..<250 { _ = try await Self.post(harness, key: 1, channel, "p\(n)", randomId: Int64(n + 1)) }
        var pts: Int32 = 1
        var texts: [String] = []
        var pages = 0
        while true {
            guard
                case .channelDifference(let page) = try await Self.difference(
                    harness, key: 1, channel, pts: pts, limit: 100)
            else {
                Issue.record("expected channelDifference"); return
            }
            pages += 1
            #expect(page.newMessages.count <= 100)
            texts += page.newMessages.compactMap {
                if case .message(let m) = $0 { return m.message }; return nil
            }
            pts = page.pts
            if page.final { break }
            #expect(pages < 10)
        }
        #expect(pages == 3 && pts == 251)
        #expect(texts == (0..<250).map { "p\($0)" })
        for n in 250..<1100 { _ = try await Self.post(harness, key: 1, channel, "p\(n)", randomId: Int64(n + 1)) }
        guard case .channelDifferenceTooLong(let long) = try await Self.difference(harness, key: 1, channel, pts: 1)
        else {
            Issue.record("expected channelDifferenceTooLong"); return
        }
        guard case .dialog(let dialog) = long.dialog else {
            Issue.record("expected a dialog, got \(long.dialog)"); return
        }
        #expect(dialog.pts == 1101 && dialog.topMessage == 1101 && long.messages.count == 100)
    }

    /// A private channel: another account's access hash, or a made-up one, is `CHANNEL_INVALID`; someone who left
    /// (with their own, once valid hash) gets `CHANNEL_PRIVATE` and no messages.
    @Test func aPrivateChannelIsHiddenFromNonMembers() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        _ = try await Self.post(harness, key: 1, channel, "secret", randomId: 1)
        let history = Api.functions.messages.getHistory(
            peer: channel.peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0)
        #expect(Self.error(await harness.call(history, key: 2, dc: 2)) == "CHANNEL_INVALID")
        let madeUp = Channel(id: channel.id, accessHash: 12345)
        #expect(
            Self.error(await harness.call(Api.functions.channels.getFullChannel(channel: madeUp.input), key: 2, dc: 2))
                == "CHANNEL_INVALID")
        #expect(
            Self.error(await harness.call(Api.functions.channels.getChannels(id: [channel.input]), key: 2, dc: 2))
                == "CHANNEL_INVALID")
        let absent = Channel(id: channel.id + 7, accessHash: 1)
        #expect(
            Self.error(await harness.call(Api.functions.channels.joinChannel(channel: absent.input), key: 2, dc: 2))
                == "CHANNEL_INVALID")
        // Ann adds Ben; Ben finds the channel in his dialogs with his own access hash, different from Ann's.
        let invited = await harness.call(
            Api.functions.channels.inviteToChannel(
                channel: channel.input, users: [.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))]),
            key: 1, dc: 2)
        #expect(Self.error(invited) == nil)
        let (bens, dialog) = try #require(try await Self.fromDialogs(harness, key: 2, id: channel.id))
        #expect(bens.accessHash != channel.accessHash)
        // Joined after the first two messages: only the service message that added him is unread.
        #expect(dialog.pts == 3 && dialog.unreadCount == 1)
        let benHistory = Api.functions.messages.getHistory(
            peer: bens.peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0)
        guard
            case .channelMessages(let page) = try await harness.result(
                benHistory, as: Api.messages.Messages.self, key: 2, dc: 2)
        else {
            Issue.record("expected channelMessages"); return
        }
        #expect(page.pts == 3 && page.count == 3)
        // Ann posts twice more: three unread for Ben.
        _ = try await Self.post(harness, key: 1, channel, "one", randomId: 2)
        _ = try await Self.post(harness, key: 1, channel, "two", randomId: 3)
        #expect(try await Self.fromDialogs(harness, key: 2, id: channel.id)?.1.unreadCount == 3)
        #expect(
            await harness.call(Api.functions.channels.readHistory(channel: bens.input, maxId: 0), key: 2, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        #expect(try await Self.fromDialogs(harness, key: 2, id: channel.id)?.1.unreadCount == 0)
        // Ben leaves: his own hash now answers CHANNEL_PRIVATE, and no messages.
        #expect(
            Self.error(await harness.call(Api.functions.channels.leaveChannel(channel: bens.input), key: 2, dc: 2))
                == nil)
        #expect(Self.error(await harness.call(benHistory, key: 2, dc: 2)) == "CHANNEL_PRIVATE")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.updates.getChannelDifference(
                        channel: bens.input, filter: .channelMessagesFilterEmpty, pts: 1, limit: 10),
                    key: 2, dc: 2)) == "CHANNEL_PRIVATE")
        #expect(
            Self.error(await harness.call(Api.functions.channels.joinChannel(channel: bens.input), key: 2, dc: 2))
                == "CHANNEL_PRIVATE")
        guard
            case .chats(let chats) = try await harness.result(
                Api.functions.channels.getChannels(id: [bens.input]), as: Api.messages.Chats.self, key: 2, dc: 2),
            case .channelForbidden? = chats.chats.first
        else { Issue.record("expected channelForbidden"); return }
        #expect(try await Self.fromDialogs(harness, key: 2, id: channel.id) == nil)
    }

    /// A public broadcast channel: found by username, joined, its posts come without an author and with views
    /// counted once per account; only admins post.
    @Test func aPublicBroadcastChannelIsFoundJoinedAndReadOnlyForMembers() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        _ = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let channel = try await Self.create(harness, key: 1, title: "News", megagroup: false)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.checkUsername(channel: channel.input, username: "ab"), key: 1, dc: 2))
                == "USERNAME_INVALID")
        #expect(
            await harness.call(
                Api.functions.channels.updateUsername(channel: channel.input, username: "news_2026"), key: 1, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        // The name is taken for people too, and for other channels.
        #expect(
            Self.error(await harness.call(Api.functions.account.updateUsername(username: "NEWS_2026"), key: 2, dc: 2))
                == "USERNAME_OCCUPIED")
        let (post, _) = try await Self.post(harness, key: 1, channel, "first post", randomId: 1)
        let resolved = try await harness.result(
            Api.functions.contacts.resolveUsername(username: "news_2026"), as: Api.contacts.ResolvedPeer.self, key: 2,
            dc: 2)
        guard case .resolvedPeer(let found) = resolved, case .peerChannel(let peer) = found.peer,
            let shown = Self.channel(in: found.chats), let hash = shown.accessHash
        else { Issue.record("not resolved to a channel"); return }
        #expect(peer.channelId == channel.id && shown.left && shown.broadcast && shown.username == "news_2026")
        let bens = Channel(id: channel.id, accessHash: hash)
        // A non-member reads a public channel.
        let history = Api.functions.messages.getHistory(
            peer: bens.peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0)
        guard
            case .channelMessages(let page) = try await harness.result(
                history, as: Api.messages.Messages.self, key: 2, dc: 2),
            case .message(let first)? = page.messages.first
        else { Issue.record("expected channelMessages"); return }
        #expect(first.post && first.fromId == nil && first.views == 0 && !first.out && first.message == "first post")
        let join = try await harness.result(
            Api.functions.channels.joinChannel(channel: bens.input), as: Api.messages.ChatInviteJoinResult.self, key: 2,
            dc: 2)
        guard case .chatInviteJoinResultOk(let ok) = join, let joined = Self.channel(in: Self.parts(ok.updates).chats)
        else {
            Issue.record("expected chatInviteJoinResultOk"); return
        }
        #expect(!joined.left && joined.participantsCount == 2)
        #expect(
            Self.error(await harness.call(Api.functions.channels.joinChannel(channel: bens.input), key: 2, dc: 2))
                == "USER_ALREADY_PARTICIPANT")
        // A 403, as Telegram answers it (Telethon's ChatWriteForbiddenError is a ForbiddenError).
        #expect(
            await harness.call(
                Api.functions.messages.sendMessage(peer: bens.peer, message: "hi", randomId: 9), key: 2, dc: 2)
                == .error(code: 403, message: "CHAT_WRITE_FORBIDDEN"))
        #expect(
            Self.error(
                await harness.call(Api.functions.channels.editTitle(channel: bens.input, title: "Mine"), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(await harness.call(Api.functions.channels.deleteChannel(channel: bens.input), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        for _ in 0..<3 {
            let views = try await harness.result(
                Api.functions.messages.getMessagesViews(peer: bens.peer, id: [post], increment: true),
                as: Api.messages.MessageViews.self,
                key: 2, dc: 2)
            guard case .messageViews(let list) = views, case .messageViews(let counted)? = list.views.first else {
                return
            }
            #expect(counted.views == 1)
        }
        // Ann's own post is `out` for her; the channel deleted, Ben's next call finds nothing.
        guard
            case .channelMessages(let mine) = try await harness.result(
                Api.functions.channels.getMessages(channel: channel.input, id: [.inputMessageID(.init(id: post))]),
                as: Api.messages.Messages.self,
                key: 1, dc: 2), case .message(let own)? = mine.messages.first
        else { Issue.record("expected channelMessages"); return }
        #expect(own.out && own.views == 1)
        #expect(
            Self.error(await harness.call(Api.functions.channels.deleteChannel(channel: channel.input), key: 1, dc: 2))
                == nil)
        #expect(Self.error(await harness.call(history, key: 2, dc: 2)) == "CHANNEL_INVALID")
        #expect(
            Self.error(await harness.call(Api.functions.contacts.resolveUsername(username: "news_2026"), key: 2, dc: 2))
                == "USERNAME_NOT_OCCUPIED")
    }

    @Test func titlesAboutsAndUsernamesAreChecked() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        _ = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        #expect(
            await harness.call(Api.functions.account.updateUsername(username: "ben_2026"), key: 2, dc: 2)
                != .notImplemented)
        func create(_ title: String, _ about: String = "") async -> String? {
            Self.error(
                await harness.call(
                    Api.functions.channels.createChannel(megagroup: true, title: title, about: about), key: 1, dc: 2))
        }
        #expect(await create("   ") == "CHAT_TITLE_EMPTY")
        #expect(await create(String(repeating: "t", count: 129)) == "CHAT_TITLE_TOO_LONG")
        #expect(await create("ok", String(repeating: "a", count: 256)) == "CHAT_ABOUT_TOO_LONG")
        #expect(await create(String(repeating: "t", count: 128), String(repeating: "a", count: 255)) == nil)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.updateUsername(channel: channel.input, username: "Ben_2026"), key: 1, dc: 2))
                == "USERNAME_OCCUPIED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.updateUsername(channel: channel.input, username: "a__bcd"), key: 1, dc: 2))
                == "USERNAME_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.checkUsername(channel: .inputChannelEmpty, username: "ben_2026"), key: 1,
                    dc: 2)) == "USERNAME_OCCUPIED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.checkUsername(channel: .inputChannelEmpty, username: "free_name"), key: 1,
                    dc: 2)) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.editTitle(channel: channel.input, title: "Team"), key: 1, dc: 2))
                == "CHAT_NOT_MODIFIED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.editChatAbout(peer: channel.peer, about: String(repeating: "a", count: 256)),
                    key: 1, dc: 2)) == "CHAT_ABOUT_TOO_LONG")
    }

    /// Rights: a member restricted from sending gets `USER_BANNED_IN_CHANNEL`, a banned one `CHANNEL_PRIVATE`; only
    /// admins with the right may ban or promote; the participant lists follow.
    @Test func adminsBanAndRestrictAndTheListsFollow() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let cidUser = Api.InputUser.inputUser(.init(userId: cid.id, accessHash: cid.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: channel.input, users: [benUser, cidUser]), key: 1,
                    dc: 2)) == nil)
        let bens = try #require(try await Self.fromDialogs(harness, key: 2, id: channel.id)).0
        let cids = try #require(try await Self.fromDialogs(harness, key: 3, id: channel.id)).0
        #expect(try await Self.post(harness, key: 2, bens, "hello from Ben", randomId: 1).id == 3)
        let cidPeer = Api.InputPeer.inputPeerUser(.init(userId: cid.id, accessHash: cid.accessHash))
        // Ben is no admin: he may not ban or promote.
        let restrict = Api.functions.channels.editBanned(
            channel: bens.input, participant: cidPeer,
            bannedRights: .chatBannedRights(.init(sendMessages: true, untilDate: 0)))
        #expect(Self.error(await harness.call(restrict, key: 2, dc: 2)) == "CHAT_ADMIN_REQUIRED")
        let promote = Api.functions.channels.editAdmin(
            channel: channel.input, userId: benUser,
            adminRights: .chatAdminRights(.init(deleteMessages: true, banUsers: true)), rank: "mod")
        #expect(Self.error(await harness.call(promote, key: 1, dc: 2)) == nil)
        // Now he may restrict Cid, but not grant rights he lacks.
        let restrictByBen = Api.functions.channels.editBanned(
            channel: bens.input, participant: cidPeer,
            bannedRights: .chatBannedRights(.init(sendMessages: true, untilDate: 0)))
        #expect(Self.error(await harness.call(restrictByBen, key: 2, dc: 2)) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: cids.peer, message: "x", randomId: 5), key: 3, dc: 2))
                == "USER_BANNED_IN_CHANNEL")
        let overreach = Api.functions.channels.editAdmin(
            channel: bens.input, userId: cidUser, adminRights: .chatAdminRights(.init(addAdmins: true)))
        #expect(Self.error(await harness.call(overreach, key: 2, dc: 2)) == "CHAT_ADMIN_REQUIRED")
        guard
            case .channelParticipants(let admins) = try await harness.result(
                Api.functions.channels.getParticipants(
                    channel: channel.input, filter: .channelParticipantsAdmins, offset: 0, limit: 10, hash: 0),
                as: Api.channels.ChannelParticipants.self, key: 1, dc: 2)
        else { Issue.record("unexpected answer"); return }
        #expect(admins.count == 2)
        #expect(
            admins.participants.contains {
                if case .channelParticipantCreator = $0 { return true }; return false
            })
        #expect(
            admins.participants.contains {
                if case .channelParticipantAdmin(let a) = $0 { return a.userId == ben.id && a.rank == "mod" };
                return false
            })
        // Banned for good (view_messages): Cid is out, and his hash answers CHANNEL_PRIVATE.
        let ban = Api.functions.channels.editBanned(
            channel: channel.input, participant: cidPeer,
            bannedRights: .chatBannedRights(.init(viewMessages: true, untilDate: 0)))
        #expect(Self.error(await harness.call(ban, key: 1, dc: 2)) == nil)
        let cidHistory = Api.functions.messages.getHistory(
            peer: cids.peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0)
        #expect(Self.error(await harness.call(cidHistory, key: 3, dc: 2)) == "CHANNEL_PRIVATE")
        guard
            case .channelParticipants(let kicked) = try await harness.result(
                Api.functions.channels.getParticipants(
                    channel: channel.input, filter: .channelParticipantsKicked(.init(q: "")), offset: 0, limit: 10,
                    hash: 0),
                as: Api.channels.ChannelParticipants.self, key: 1, dc: 2)
        else { Issue.record("unexpected answer"); return }
        #expect(kicked.count == 1)
        guard
            case .channelParticipants(let recent) = try await harness.result(
                Api.functions.channels.getParticipants(
                    channel: channel.input, filter: .channelParticipantsRecent, offset: 1, limit: 10, hash: 0),
                as: Api.channels.ChannelParticipants.self, key: 1, dc: 2)
        else { Issue.record("unexpected answer"); return }
        #expect(recent.count == 2 && recent.participants.count == 1)
        // An admin who may ban sees Cid as banned; Cid is no participant to promote.
        guard
            case .channelParticipant(let one) = try await harness.result(
                Api.functions.channels.getParticipant(channel: bens.input, participant: cidPeer),
                as: Api.channels.ChannelParticipant.self,
                key: 2, dc: 2), case .channelParticipantBanned(let banned) = one.participant
        else { Issue.record("expected channelParticipantBanned"); return }
        #expect(banned.left)
        let promoteCid = Api.functions.channels.editAdmin(
            channel: channel.input, userId: cidUser, adminRights: .chatAdminRights(.init(deleteMessages: true)),
            rank: nil)
        #expect(Self.error(await harness.call(promoteCid, key: 1, dc: 2)) == "USER_NOT_PARTICIPANT")
        // Ben holds delete_messages: Ann's creation message goes.
        let deleted = try await harness.result(
            Api.functions.channels.deleteMessages(channel: bens.input, id: [1]), as: Api.messages.AffectedMessages.self,
            key: 2, dc: 2)
        guard case .affectedMessages(let affected) = deleted else {
            Issue.record("expected affectedMessages, got \(deleted)"); return
        }
        #expect(affected.ptsCount == 1)
    }

    /// Dialogs of people and channels, all of one date (the harness's clock stands still), paged four at a time as
    /// Telethon's `iter_dialogs` pages (offset_peer, offset_id and offset_date of the last dialog): each once.
    @Test func dialogsOfPeopleAndChannelsPageWithoutLossOrRepeats() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        var people: [Int64: Api.InputPeer] = [:]
        for n in 0..<7 {
            let other = try await harness.signUp("99966201\(10 + n)", name: "P\(n)", key: Int64(10 + n), dc: 2)
            let peer = Api.InputPeer.inputPeerUser(.init(userId: other.id, accessHash: other.accessHash))
            people[other.id] = peer
            #expect(
                Self.error(
                    await harness.call(
                        Api.functions.messages.sendMessage(peer: peer, message: "hi", randomId: Int64(n + 1)), key: 1,
                        dc: 2)) == nil)
        }
        var channels: [Int64: Channel] = [:]
        for n in 0..<6 {
            let channel = try await Self.create(harness, key: 1, title: "C\(n)", megagroup: n % 2 == 0)
            channels[channel.id] = channel
        }
        var seen: [String] = []
        var offsetPeer = Api.InputPeer.inputPeerEmpty
        var offsetId: Int32 = 0
        var offsetDate: Int32 = 0
        for _ in 0..<10 {
            let answer = try await harness.result(
                Api.functions.messages.getDialogs(
                    offsetDate: offsetDate, offsetId: offsetId, offsetPeer: offsetPeer, limit: 4, hash: 0),
                as: Api.messages.Dialogs.self, key: 1, dc: 2)
            let (dialogs, messages): ([Api.Dialog], [Api.Message])
            switch answer {
            case .dialogs(let d): (dialogs, messages) = (d.dialogs, d.messages)
            case .dialogsSlice(let d):
                (dialogs, messages) = (d.dialogs, d.messages)
                #expect(d.count == 13)
            case .dialogsNotModified: return
            }
            guard case .dialog(let last)? = dialogs.last else { break }
            for case .dialog(let dialog) in dialogs {
                switch dialog.peer {
                case .peerUser(let user): seen.append("u\(user.userId)")
                case .peerChannel(let channel):
                    seen.append("c\(channel.channelId)")
                    #expect(dialog.pts != nil)
                default: Issue.record("unexpected peer")
                }
            }
            switch last.peer {
            case .peerUser(let user): offsetPeer = try #require(people[user.userId])
            case .peerChannel(let channel): offsetPeer = try #require(channels[channel.channelId]).peer
            default: break
            }
            offsetId = last.topMessage
            for message in messages {
                if case .message(let m) = message, m.id == last.topMessage,
                    m.peerId.serialized() == last.peer.serialized()
                {
                    offsetDate = m.date
                }
                if case .messageService(let m) = message, m.id == last.topMessage,
                    m.peerId.serialized() == last.peer.serialized()
                {
                    offsetDate = m.date
                }
            }
            if dialogs.count < 4 { break }
        }
        #expect(seen.count == 13 && Set(seen).count == 13, "\(seen)")
    }

    /// A broadcast post forwarded to a person names the channel and the post; a person's message forwarded into a
    /// supergroup is posted there with its sender in the header.
    @Test func forwardsLeaveAndEnterChannels() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let benPeer = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let news = try await Self.create(harness, key: 1, title: "News", megagroup: false)
        let (post, _) = try await Self.post(harness, key: 1, news, "a post", randomId: 1)
        let forwarded = try await harness.result(
            Api.functions.messages.forwardMessages(fromPeer: news.peer, id: [post], randomId: [2], toPeer: benPeer),
            as: Api.Updates.self, key: 1, dc: 2)
        let header = Self.parts(forwarded).updates.compactMap { update -> Api.MessageFwdHeader.Cons_messageFwdHeader? in
            if case .updateNewMessage(let new) = update, case .message(let m) = new.message,
                case .messageFwdHeader(let h)? = m.fwdFrom
            {
                return h
            }
            return nil
        }.first
        #expect(header?.channelPost == post)
        if case .peerChannel(let from)? = header?.fromId {
            #expect(from.channelId == news.id)
        } else {
            Issue.record("no channel in the header")
        }
        // Ann's message to Ben, forwarded into a supergroup: a channel message with the header naming Ann.
        let group = try await Self.create(harness, key: 1, megagroup: true)
        _ = await harness.call(
            Api.functions.messages.sendMessage(peer: benPeer, message: "to Ben", randomId: 3), key: 1, dc: 2)
        let history = try await harness.result(
            Api.functions.messages.getHistory(
                peer: benPeer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 1, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 1, dc: 2)
        guard case .messagesSlice(let page) = history, case .message(let last)? = page.messages.first else {
            Issue.record("no history: \(history)"); return
        }
        let into = try await harness.result(
            Api.functions.messages.forwardMessages(fromPeer: benPeer, id: [last.id], randomId: [4], toPeer: group.peer),
            as: Api.Updates.self, key: 1, dc: 2)
        let posted = Self.parts(into).updates.compactMap { update -> Api.Message.Cons_message? in
            if case .updateNewChannelMessage(let new) = update, case .message(let m) = new.message { return m }
            return nil
        }.first
        #expect(posted?.id == 2 && posted?.message == "to Ben" && posted?.fwdFrom != nil)
    }

    /// A supergroup of 1,000: a post is one message in the channel (id and pts one past the last), every member reads
    /// it from the channel's one copy, and it is pushed to the members who are online (half of them) and no one else;
    /// the post is one write in one transaction of the store, however many members it reaches.
    @Test func aThousandMembersShareOneCopyOfEachPost() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        var members: [Api.InputUser] = []
        for n in 0..<999 {
            let member = try await harness.signUp(
                "999662\(String(format: "%04d", 1000 + n))", name: "M\(n)", key: Int64(100 + n), dc: 2)
            members.append(.inputUser(.init(userId: member.id, accessHash: member.accessHash)))
        }
        for start in stride(from: 0, to: members.count, by: 200) {
            let batch = Array(members[start..<min(start + 200, members.count)])
            #expect(
                Self.error(
                    await harness.call(
                        Api.functions.channels.inviteToChannel(channel: channel.input, users: batch), key: 1, dc: 2))
                    == nil)
        }
        guard
            case .chatFull(let full) = try await harness.result(
                Api.functions.channels.getFullChannel(channel: channel.input), as: Api.messages.ChatFull.self, key: 1,
                dc: 2),
            case .channelFull(let info) = full.fullChat
        else { Issue.record("unexpected answer"); return }
        #expect(info.participantsCount == 1000 && info.pts == 6)
        let (quiet, _) = try await Self.post(harness, key: 1, channel, "nobody online", randomId: 98)
        #expect(quiet == 7)
        // Half the members come online (a second session each): the next post is pushed to those 500 only.
        let pushed = Pushed()
        for key in stride(from: Int64(100), to: 1099, by: 2) {
            harness.updates.subscribe(
                .init(authKeyId: key, sessionId: 5000 + key), connection: ObjectIdentifier(pushed)
            ) {
                bytes in pushed.add(key, bytes)
            }
        }
        let writesBefore = harness.store.writeStatistics
        let started = Date()
        let (id, pts) = try await Self.post(harness, key: 1, channel, "to everyone", randomId: 99)
        let seconds = Date().timeIntervalSince(started)
        let writesAfter = harness.store.writeStatistics
        #expect(id == 8 && pts == 8, "took \(seconds) s")
        // Nothing else writes meanwhile (one caller, no connections): the post is one write, committed once.
        #expect(writesAfter.writes - writesBefore.writes == 1 && writesAfter.commits - writesBefore.commits == 1)
        let reached = (100..<1099).filter { key in
            pushed.updates(for: Int64(key)).contains { updates in
                guard case .updates(let body) = updates, case .updateNewChannelMessage(let new)? = body.updates.first
                else {
                    return false
                }
                return new.pts == pts
            }
        }
        #expect(reached.count == 500 && reached.allSatisfy { $0 % 2 == 0 }, "took \(seconds) s")
        // Three members, far apart, read the same message from the channel.
        for key in [Int64(100), 600, 1098] {
            let (own, _) = try #require(try await Self.fromDialogs(harness, key: key, id: channel.id))
            guard case .channelDifference(let difference) = try await Self.difference(harness, key: key, own, pts: 6)
            else {
                Issue.record("expected channelDifference"); return
            }
            let texts = difference.newMessages.compactMap { message -> String? in
                if case .message(let m) = message, !m.out { return m.message }
                return nil
            }
            #expect(texts == ["nobody online", "to everyone"] && difference.final && difference.pts == 8)
        }
    }

    /// `updates.getDifference` names each of the caller's channels that changed since its date with
    /// `updateChannelTooLong` (and the channel in `chats`), even when its own pts did not move; later dates, nothing.
    @Test func getDifferenceNamesChannelsThatChangedSinceTheDate() async throws {
        let clock = Clock(now: 1_800_000_000)
        let harness = try Harness(clock: { clock.now })
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        let invite = Api.functions.channels.inviteToChannel(
            channel: channel.input, users: [.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))])
        #expect(Self.error(await harness.call(invite, key: 1, dc: 2)) == nil)
        guard
            case .state(let state) = try await harness.result(
                Api.functions.updates.getState(), as: Api.updates.State.self, key: 2, dc: 2)
        else { Issue.record("unexpected answer"); return }
        clock.now += 10
        _ = try await Self.post(harness, key: 1, channel, "while away", randomId: 1)
        let difference = try await harness.result(
            Api.functions.updates.getDifference(pts: state.pts, date: state.date + 5, qts: 0),
            as: Api.updates.Difference.self, key: 2, dc: 2)
        guard case .difference(let found) = difference else {
            Issue.record("expected difference, got \(difference)"); return
        }
        guard case .updateChannelTooLong(let tooLong)? = found.otherUpdates.first else {
            Issue.record("no updateChannelTooLong"); return
        }
        #expect(tooLong.channelId == channel.id && tooLong.pts == 3 && found.newMessages.isEmpty)
        #expect(Self.channel(in: found.chats)?.id == channel.id)
        let later = try await harness.result(
            Api.functions.updates.getDifference(pts: state.pts, date: state.date + 11, qts: 0),
            as: Api.updates.Difference.self, key: 2, dc: 2)
        guard case .differenceEmpty = later else { Issue.record("expected differenceEmpty, got \(later)"); return }
    }

    /// A clock tests move by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Double

        init(now: Double) { value = now }

        var now: Double {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// Pushes go to members' online sessions only: Ben's second session gets Ann's post as `updateNewChannelMessage`
    /// with the channel as he sees it; Ann's gets `updateReadChannelOutbox` once Ben reads; Cid, offline, nothing.
    @Test func onlineMembersGetPostsAndReadsPushed() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        let users: [Api.InputUser] = [
            .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)),
            .inputUser(.init(userId: cid.id, accessHash: cid.accessHash)),
        ]
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: channel.input, users: users), key: 1, dc: 2)) == nil
        )
        let bens = try #require(try await Self.fromDialogs(harness, key: 2, id: channel.id)).0
        let pushed = Pushed()
        // Ann's and Ben's other sessions (not the ones that make calls) are online.
        for key in [Int64(1), 2] {
            harness.updates.subscribe(
                .init(authKeyId: key, sessionId: 1000 + key), connection: ObjectIdentifier(pushed)
            ) { bytes in pushed.add(key, bytes) }
        }
        let (id, pts) = try await Self.post(harness, key: 1, channel, "live", randomId: 1)
        let toBen = pushed.updates(for: 2)
        guard case .updates(let body)? = toBen.last, case .updateNewChannelMessage(let new)? = body.updates.first,
            case .message(let message) = new.message
        else { Issue.record("Ben got \(toBen)"); return }
        #expect(message.id == id && new.pts == pts && !message.out && message.message == "live")
        #expect(Self.channel(in: body.chats)?.accessHash == bens.accessHash)
        // Ann's other session gets her own post too, as hers.
        if case .updates(let mine)? = pushed.updates(for: 1).last,
            case .updateNewChannelMessage(let own)? = mine.updates.first,
            case .message(let ownMessage) = own.message
        {
            #expect(ownMessage.out)
        } else {
            Issue.record("Ann's other session got nothing")
        }
        #expect(harness.updates.subscribedSessions(authKeyId: 3) == 0)
        #expect(
            await harness.call(Api.functions.channels.readHistory(channel: bens.input, maxId: id), key: 2, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        let read = pushed.updates(for: 1).compactMap { updates -> Int32? in
            if case .updateShort(let short) = updates, case .updateReadChannelOutbox(let outbox) = short.update {
                return outbox.maxId
            }
            return nil
        }
        #expect(read == [id])
        let inbox = pushed.updates(for: 2).compactMap { updates -> Int32? in
            if case .updateShort(let short) = updates, case .updateReadChannelInbox(let inbox) = short.update {
                return inbox.maxId
            }
            return nil
        }
        #expect(inbox == [id])
        // Ben types: Ann's online session hears it, Ben's own does not.
        #expect(
            await harness.call(
                Api.functions.messages.setTyping(peer: bens.peer, action: .sendMessageTypingAction), key: 2, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        let typing = { (key: Int64) in
            pushed.updates(for: key).filter { updates in
                guard case .updates(let body) = updates, case .updateChannelUserTyping? = body.updates.first else {
                    return false
                }
                return true
            }.count
        }
        #expect(typing(1) == 1 && typing(2) == 0)
    }

    /// Pinning: channels and people share one pinned order at the head of the list, most recently pinned first.
    @Test func pinnedChannelsAndPeopleLeadTheDialogs() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let benPeer = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let first = try await Self.create(harness, key: 1, title: "First", megagroup: true)
        _ = await harness.call(
            Api.functions.messages.sendMessage(peer: benPeer, message: "hi", randomId: 1), key: 1, dc: 2)
        let second = try await Self.create(harness, key: 1, title: "Second", megagroup: true)
        func order() async throws -> [String] {
            let answer = try await harness.result(
                Api.functions.messages.getDialogs(
                    offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 10, hash: 0),
                as: Api.messages.Dialogs.self, key: 1, dc: 2)
            guard case .dialogs(let list) = answer else { return [] }
            return list.dialogs.map { dialog in
                guard case .dialog(let d) = dialog else { return "?" }
                switch d.peer {
                case .peerUser: return d.pinned ? "ben*" : "ben"
                case .peerChannel(let c): return (c.channelId == first.id ? "first" : "second") + (d.pinned ? "*" : "")
                default: return "?"
                }
            }
        }
        func pin(_ peer: Api.InputPeer, _ pinned: Bool = true) async -> String? {
            Self.error(
                await harness.call(
                    Api.functions.messages.toggleDialogPin(pinned: pinned, peer: .inputDialogPeer(.init(peer: peer))),
                    key: 1, dc: 2))
        }
        // Same date everywhere (the harness's clock stands still): the box's dialogs, then channels by id.
        #expect(try await order() == ["ben", "second", "first"])
        #expect(await pin(first.peer) == nil)
        #expect(try await order() == ["first*", "ben", "second"])
        #expect(await pin(benPeer) == nil)
        #expect(try await order() == ["ben*", "first*", "second"])
        #expect(await pin(first.peer, false) == nil)
        #expect(try await order() == ["ben*", "second", "first"])
        let stranger = Channel(id: second.id, accessHash: 42)
        #expect(await pin(stranger.peer) == "CHANNEL_INVALID")
    }

    /// A member restricted from sending who leaves a public supergroup and joins again is still restricted.
    @Test func restrictionsOutliveLeavingAndComingBack() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let channel = try await Self.create(harness, key: 1, megagroup: true)
        #expect(
            await harness.call(
                Api.functions.channels.updateUsername(channel: channel.input, username: "open_group"), key: 1, dc: 2)
                == .result([0xb5, 0x75, 0x72, 0x99]))
        let resolved = try await harness.result(
            Api.functions.contacts.resolveUsername(username: "open_group"), as: Api.contacts.ResolvedPeer.self, key: 2,
            dc: 2)
        guard case .resolvedPeer(let found) = resolved, let hash = Self.channel(in: found.chats)?.accessHash else {
            return
        }
        let bens = Channel(id: channel.id, accessHash: hash)
        #expect(
            Self.error(await harness.call(Api.functions.channels.joinChannel(channel: bens.input), key: 2, dc: 2))
                == nil)
        let benPeer = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let restrict = Api.functions.channels.editBanned(
            channel: channel.input, participant: benPeer,
            bannedRights: .chatBannedRights(.init(sendMessages: true, untilDate: 0)))
        #expect(Self.error(await harness.call(restrict, key: 1, dc: 2)) == nil)
        let send = Api.functions.messages.sendMessage(peer: bens.peer, message: "x", randomId: 1)
        #expect(Self.error(await harness.call(send, key: 2, dc: 2)) == "USER_BANNED_IN_CHANNEL")
        #expect(
            Self.error(await harness.call(Api.functions.channels.leaveChannel(channel: bens.input), key: 2, dc: 2))
                == nil)
        #expect(
            Self.error(await harness.call(Api.functions.channels.joinChannel(channel: bens.input), key: 2, dc: 2))
                == nil)
        #expect(Self.error(await harness.call(send, key: 2, dc: 2)) == "USER_BANNED_IN_CHANNEL")
        // A restriction that ended (until_date passed) no longer holds.
        let ended = Api.functions.channels.editBanned(
            channel: channel.input, participant: benPeer,
            bannedRights: .chatBannedRights(.init(sendMessages: true, untilDate: 1_700_000_000)))
        #expect(Self.error(await harness.call(ended, key: 1, dc: 2)) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: bens.peer, message: "y", randomId: 2), key: 2, dc: 2))
                == nil)
        // Lifted (no rights): Ben writes again.
        let lift = Api.functions.channels.editBanned(
            channel: channel.input, participant: benPeer, bannedRights: .chatBannedRights(.init(untilDate: 0)))
        #expect(Self.error(await harness.call(lift, key: 1, dc: 2)) == nil)
        #expect(Self.error(await harness.call(send, key: 2, dc: 2)) == nil)
    }

    /// What the gateway handed to each subscribed key.
    final class Pushed: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [Int64: [[UInt8]]] = [:]

        func add(_ key: Int64, _ bytes: [UInt8]) { lock.withLock { received[key, default: []].append(bytes) } }

        func updates(for key: Int64) -> [Api.Updates] {
            lock.withLock { received[key] ?? [] }.compactMap { try? Api.Updates(tlBytes: $0) }
        }
    }
}
