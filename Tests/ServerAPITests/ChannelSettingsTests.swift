import Foundation
import ImageCore
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Slow mode, post signatures and default banned rights (core.telegram.org methods `channels.toggleSlowMode`,
/// `channels.toggleSignatures`, `messages.editChatDefaultBannedRights`), enforced on sending and kept across a
/// restart.
@Suite struct ChannelSettingsTests {
    typealias Harness = ServerBackendTests.Harness
    typealias Channel = ChannelTests.Channel

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func send(
        _ harness: Harness, key: Int64, _ peer: Api.InputPeer, _ text: String, randomId: Int64
    ) async
        -> RPCResponse
    {
        await harness.call(
            Api.functions.messages.sendMessage(peer: peer, message: text, randomId: randomId), key: key, dc: 2)
    }

    static func shown(_ updates: Api.Updates) -> Api.Chat.Cons_channel? {
        guard case .updates(let body) = updates else { return nil }
        return ChannelTests.channel(in: body.chats)
    }

    /// Slow mode: only Telegram's delays (`SECONDS_INVALID`), set by admins who may ban; a member then waits
    /// (420 `SLOWMODE_WAIT_X` with the seconds left, also in `channelFull.slowmode_next_send_date`), admins do not.
    @Test func slowModeMakesMembersWaitButNotAdmins() async throws {
        let clock = ChannelTests.Clock(now: 1_800_000_000)
        let harness = try Harness(clock: { clock.now })
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let team = try await ChannelTests.create(harness, key: 1, megagroup: true)
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: team.input, users: [benUser]), key: 1, dc: 2))
                == nil)
        let bens = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: team.id)).0
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSlowMode(channel: team.input, seconds: 45), key: 1, dc: 2))
                == "SECONDS_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSlowMode(channel: bens.input, seconds: 60), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        let toggled = try await harness.result(
            Api.functions.channels.toggleSlowMode(channel: team.input, seconds: 60), as: Api.Updates.self, key: 1, dc: 2
        )
        #expect(Self.shown(toggled)?.slowmodeEnabled == true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSlowMode(channel: team.input, seconds: 60), key: 1, dc: 2))
                == "CHAT_NOT_MODIFIED")
        #expect(Self.error(await Self.send(harness, key: 2, bens.peer, "first", randomId: 1)) == nil)
        #expect(
            await Self.send(harness, key: 2, bens.peer, "second", randomId: 2)
                == .error(code: 420, message: "SLOWMODE_WAIT_60"))
        clock.now += 45
        #expect(
            await Self.send(harness, key: 2, bens.peer, "second", randomId: 3)
                == .error(code: 420, message: "SLOWMODE_WAIT_15"))
        let full = try await harness.result(
            Api.functions.channels.getFullChannel(channel: bens.input), as: Api.messages.ChatFull.self, key: 2, dc: 2)
        guard case .chatFull(let body) = full, case .channelFull(let channelFull) = body.fullChat else {
            Issue.record("\(full)"); return
        }
        #expect(channelFull.slowmodeSeconds == 60 && channelFull.slowmodeNextSendDate == 1_800_000_060)
        // Admins are exempt.
        #expect(Self.error(await Self.send(harness, key: 1, team.peer, "a1", randomId: 4)) == nil)
        #expect(Self.error(await Self.send(harness, key: 1, team.peer, "a2", randomId: 5)) == nil)
        clock.now += 15
        #expect(Self.error(await Self.send(harness, key: 2, bens.peer, "second", randomId: 6)) == nil)
        // Off again: no waiting.
        _ = try await harness.result(
            Api.functions.channels.toggleSlowMode(channel: team.input, seconds: 0), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.error(await Self.send(harness, key: 2, bens.peer, "third", randomId: 7)) == nil)
        // Broadcast channels have no slow mode.
        let news = try await ChannelTests.create(harness, key: 1, title: "News", megagroup: false)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSlowMode(channel: news.input, seconds: 60), key: 1, dc: 2))
                == "INPUT_METHOD_INVALID")
    }

    /// Signatures: a broadcast channel's posts carry `post_author` once on (only then, and only in broadcast
    /// channels).
    @Test func signedPostsCarryTheirAuthor() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let news = try await ChannelTests.create(harness, key: 1, title: "News", megagroup: false)
        let unsigned = try await harness.result(
            Api.functions.messages.sendMessage(peer: news.peer, message: "plain", randomId: 1), as: Api.Updates.self,
            key: 1, dc: 2)
        let toggled = try await harness.result(
            Api.functions.channels.toggleSignatures(signaturesEnabled: true, channel: news.input), as: Api.Updates.self,
            key: 1, dc: 2)
        #expect(Self.shown(toggled)?.signatures == true)
        let signed = try await harness.result(
            Api.functions.messages.sendMessage(peer: news.peer, message: "signed", randomId: 2), as: Api.Updates.self,
            key: 1, dc: 2)
        let author = { (updates: Api.Updates) -> String? in
            guard case .updates(let body) = updates else { return nil }
            for case .updateNewChannelMessage(let new) in body.updates {
                if case .message(let message) = new.message { return message.postAuthor }
            }
            return nil
        }
        #expect(author(unsigned) == nil && author(signed) == "Ann")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSignatures(signaturesEnabled: true, channel: news.input), key: 1, dc: 2
                ))
                == "CHAT_NOT_MODIFIED")
        let team = try await ChannelTests.create(harness, key: 1, megagroup: true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.toggleSignatures(signaturesEnabled: true, channel: team.input), key: 1, dc: 2
                ))
                == "CHANNEL_INVALID")
    }

    /// Default banned rights in a supergroup and a basic group bind members who are no admins: text, sending at all,
    /// pinning, inviting; `view_messages` cannot be a default (`RIGHT_FORBIDDEN`).
    @Test func defaultRightsBindMembersButNotAdmins() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let benUser = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let cidUser = Api.InputUser.inputUser(.init(userId: cid.id, accessHash: cid.accessHash))
        let team = try await ChannelTests.create(harness, key: 1, megagroup: true)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: team.input, users: [benUser]), key: 1, dc: 2))
                == nil)
        let bens = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: team.id)).0
        let (note, _) = try await ChannelTests.post(harness, key: 1, team, "note", randomId: 1)
        let edit = { (rights: Api.ChatBannedRights, peer: Api.InputPeer, key: Int64) in
            await harness.call(
                Api.functions.messages.editChatDefaultBannedRights(peer: peer, bannedRights: rights), key: key, dc: 2)
        }
        #expect(
            Self.error(await edit(.chatBannedRights(.init(sendPlain: true, untilDate: 0)), bens.peer, 2))
                == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(await edit(.chatBannedRights(.init(viewMessages: true, untilDate: 0)), team.peer, 1))
                == "RIGHT_FORBIDDEN")
        let set = await edit(
            .chatBannedRights(.init(inviteUsers: true, pinMessages: true, sendPlain: true, untilDate: 0)), team.peer, 1)
        guard case .result(let bytes) = set, let shown = Self.shown(try Api.Updates(tlBytes: bytes)),
            case .chatBannedRights(let defaults)? = shown.defaultBannedRights
        else { Issue.record("\(set)"); return }
        #expect(defaults.sendPlain && defaults.pinMessages && !defaults.sendMessages)
        #expect(
            await Self.send(harness, key: 2, bens.peer, "text", randomId: 2)
                == .error(code: 403, message: "CHAT_SEND_PLAIN_FORBIDDEN"))
        #expect(Self.error(await Self.send(harness, key: 1, team.peer, "admin text", randomId: 3)) == nil)
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.updatePinnedMessage(peer: bens.peer, id: note), key: 2, dc: 2)
            )
                == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.channels.inviteToChannel(channel: bens.input, users: [cidUser]), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
        #expect(
            Self.error(await edit(.chatBannedRights(.init(sendMessages: true, untilDate: 0)), team.peer, 1)) == nil)
        #expect(
            await Self.send(harness, key: 2, bens.peer, "text", randomId: 4)
                == .error(code: 403, message: "CHAT_WRITE_FORBIDDEN"))
        // A basic group: its creator sets them, everyone else is bound.
        let chatId = try await harness.createGroup("Group", members: [benUser], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        #expect(
            Self.error(await edit(.chatBannedRights(.init(sendMessages: true, untilDate: 0)), group, 2))
                == "CHAT_ADMIN_REQUIRED")
        let changed = await edit(
            .chatBannedRights(.init(sendMessages: true, inviteUsers: true, untilDate: 0)), group, 1)
        guard case .result(let changedBytes) = changed,
            case .updates(let update) = try Api.Updates(tlBytes: changedBytes),
            case .updateChatDefaultBannedRights(let rights)? = update.updates.first
        else { Issue.record("\(changed)"); return }
        #expect(rights.version == 2)
        #expect(
            await Self.send(harness, key: 2, group, "hi", randomId: 5)
                == .error(code: 403, message: "CHAT_WRITE_FORBIDDEN"))
        #expect(Self.error(await Self.send(harness, key: 1, group, "hi", randomId: 6)) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.addChatUser(chatId: chatId, userId: cidUser, fwdLimit: 0), key: 2, dc: 2))
                == "CHAT_ADMIN_REQUIRED")
    }

    /// Slow mode, signatures and default rights are stored: a restarted server still enforces and shows them.
    @Test func settingsSurviveARestart() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let create = { (megagroup: Bool) throws -> Channel in
            let created = try harness.result(
                Api.functions.channels.createChannel(
                    broadcast: !megagroup, megagroup: megagroup, title: "T", about: ""),
                as: Api.Updates.self, key: 1)
            let shown = try #require(Self.shown(created))
            return Channel(id: shown.id, accessHash: try #require(shown.accessHash))
        }
        let team = try create(true)
        let news = try create(false)
        #expect(
            harness.error(Api.functions.channels.inviteToChannel(channel: team.input, users: [ben.inputUser]), key: 1)
                == nil)
        #expect(harness.error(Api.functions.channels.toggleSlowMode(channel: team.input, seconds: 300), key: 1) == nil)
        #expect(
            harness.error(
                Api.functions.messages.editChatDefaultBannedRights(
                    peer: team.peer, bannedRights: .chatBannedRights(.init(pinMessages: true, untilDate: 0))), key: 1)
                == nil)
        #expect(
            harness.error(Api.functions.channels.toggleSignatures(signaturesEnabled: true, channel: news.input), key: 1)
                == nil)
        let dialogs = try harness.result(
            Api.functions.messages.getDialogs(
                offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 10, hash: 0),
            as: Api.messages.Dialogs.self, key: 2)
        guard case .dialogs(let list) = dialogs, let bensHash = ChannelTests.channel(in: list.chats)?.accessHash else {
            Issue.record("\(dialogs)"); return
        }
        let bens = Channel(id: team.id, accessHash: bensHash)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: bens.peer, message: "one", randomId: 1), key: 2)
                == nil)
        try harness.restart()
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: bens.peer, message: "two", randomId: 2), key: 2)
                == "SLOWMODE_WAIT_300")
        let chats = try harness.result(
            Api.functions.channels.getChannels(id: [team.input, news.input]), as: Api.messages.Chats.self, key: 1)
        guard case .chats(let found) = chats else { Issue.record("\(chats)"); return }
        let channels = found.chats.compactMap { chat -> Api.Chat.Cons_channel? in
            if case .channel(let channel) = chat { return channel }
            return nil
        }
        #expect(channels.count == 2)
        for channel in channels {
            if channel.megagroup {
                guard case .chatBannedRights(let rights)? = channel.defaultBannedRights else {
                    Issue.record("no default rights"); continue
                }
                #expect(channel.slowmodeEnabled && rights.pinMessages)
            } else {
                #expect(channel.signatures)
            }
        }
    }

    /// `channels.editPhoto`: admins with `change_info` set an uploaded picture (`messageActionChatEditPhoto`, the
    /// channel's `photo` and `channelFull.chat_photo`), a member may download it through
    /// `inputPeerPhotoFileLocation`, a stranger may not; it survives a restart; removing it is
    /// `messageActionChatDeletePhoto`, removing nothing `CHAT_NOT_MODIFIED`.
    @Test func aChannelPhotoIsSetShownServedAndRemoved() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        _ = try harness.signUp("9996620003", name: "Cid", key: 3)
        let created = try harness.result(
            Api.functions.channels.createChannel(megagroup: true, title: "T", about: ""), as: Api.Updates.self, key: 1)
        let shown = try #require(Self.shown(created))
        let team = Channel(id: shown.id, accessHash: try #require(shown.accessHash))
        #expect(
            harness.error(Api.functions.channels.inviteToChannel(channel: team.input, users: [ben.inputUser]), key: 1)
                == nil)
        var bitmap = Bitmap(width: 160, height: 120)
        for y in 0..<120 { for x in 0..<160 { bitmap[x, y] = RGBA(r: UInt8(x), g: UInt8(y), b: 9, a: 255) } }
        #expect(
            harness.error(
                Api.functions.upload.saveFilePart(fileId: 77, filePart: 0, bytes: PNGCodec.encode(bitmap)), key: 1)
                == nil)
        let upload = Api.InputChatPhoto.inputChatUploadedPhoto(
            .init(file: .inputFile(.init(id: 77, parts: 1, name: "p.png", md5Checksum: ""))))
        let dialogs = try harness.result(
            Api.functions.messages.getDialogs(
                offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 10, hash: 0),
            as: Api.messages.Dialogs.self, key: 2)
        guard case .dialogs(let list) = dialogs, let bensHash = ChannelTests.channel(in: list.chats)?.accessHash else {
            Issue.record("\(dialogs)"); return
        }
        let bens = Channel(id: team.id, accessHash: bensHash)
        #expect(
            harness.error(Api.functions.channels.editPhoto(channel: bens.input, photo: upload), key: 2)
                == "CHAT_ADMIN_REQUIRED")
        let edited = try harness.result(
            Api.functions.channels.editPhoto(channel: team.input, photo: upload), as: Api.Updates.self, key: 1)
        guard case .updates(let body) = edited,
            case .chatPhoto(let chatPhoto)? = ChannelTests.channel(in: body.chats)?.photo
        else { Issue.record("\(edited)"); return }
        let action = body.updates.compactMap { update -> Api.MessageAction? in
            if case .updateNewChannelMessage(let new) = update, case .messageService(let service) = new.message {
                return service.action
            }
            return nil
        }.first
        guard case .messageActionChatEditPhoto(let editPhoto)? = action, case .photo(let photo) = editPhoto.photo else {
            Issue.record("\(String(describing: action))"); return
        }
        #expect(photo.id == chatPhoto.photoId && chatPhoto.strippedThumb != nil)
        try harness.restart()
        let full = try harness.result(
            Api.functions.channels.getFullChannel(channel: bens.input), as: Api.messages.ChatFull.self, key: 2)
        guard case .chatFull(let fullBody) = full, case .channelFull(let channelFull) = fullBody.fullChat,
            case .photo(let fullPhoto) = channelFull.chatPhoto
        else { Issue.record("\(full)"); return }
        #expect(fullPhoto.id == photo.id)
        let location = { (channel: Channel) in
            Api.functions.upload.getFile(
                location: .inputPeerPhotoFileLocation(.init(peer: channel.peer, photoId: photo.id)), offset: 0,
                limit: 1024 * 1024)
        }
        guard case .file(let file) = try harness.result(location(bens), as: Api.upload.File.self, key: 2) else {
            Issue.record("no file"); return
        }
        #expect(!file.bytes.isEmpty)
        #expect(harness.error(location(Channel(id: team.id, accessHash: 5)), key: 3) == "CHANNEL_INVALID")
        let removed = try harness.result(
            Api.functions.channels.editPhoto(channel: team.input, photo: .inputChatPhotoEmpty), as: Api.Updates.self,
            key: 1)
        guard case .updates(let removedBody) = removed else { Issue.record("\(removed)"); return }
        #expect(
            removedBody.updates.contains {
                if case .updateNewChannelMessage(let new) = $0, case .messageService(let service) = new.message,
                    case .messageActionChatDeletePhoto = service.action
                {
                    return true
                }
                return false
            })
        #expect(
            harness.error(Api.functions.channels.editPhoto(channel: team.input, photo: .inputChatPhotoEmpty), key: 1)
                == "CHAT_NOT_MODIFIED")
    }
}
