import Postbox
import SyncCore
import TelegramApi
import Testing

@testable import SyncCoreApi

/// Channels and supergroups from the API's `channel` and `channelForbidden`, `min` merging, and channel posts as
/// stored messages.
@Suite struct ApiChannelConversionTests {
    static let megagroupApi = Api.Chat.channel(
        .init(
            creator: true, verified: true, megagroup: true, scam: true, hasGeo: true, slowmodeEnabled: true,
            fake: true, gigagroup: true, noforwards: true, joinToSend: true, joinRequest: true, forum: true,
            id: 1_000_000_042, accessHash: -77, title: "Nhóm lớn",
            photo: .chatPhoto(.init(photoId: 3, strippedThumb: [7], dcId: 1)), date: 1_600_000_000,
            adminRights: .chatAdminRights(
                .init(changeInfo: true, deleteMessages: true, banUsers: true, pinMessages: true, addAdmins: true,
                      anonymous: true, manageCall: true, manageTopics: true)),
            defaultBannedRights: .chatBannedRights(
                .init(sendMedia: true, sendPolls: true, pinMessages: true, sendVoices: true, untilDate: Int32.max)),
            participantsCount: 200_000,
            usernames: [.username(.init(editable: true, active: false, username: "old")), .username(.init(active: true, username: "lon"))]))

    @Test func megagroup() throws {
        let channel = try #require(TelegramChannel(Self.megagroupApi))
        #expect(channel.id == .channel(1_000_000_042) && channel.accessHash == .personal(-77))
        #expect(channel.title == "Nhóm lớn" && channel.username == "lon" && channel.creationDate == 1_600_000_000)
        #expect(channel.participationStatus == .member && channel.participantCount == 200_000)
        #expect(channel.info == .group([.slowModeEnabled], slowModeTimeout: nil))
        #expect(
            channel.flags == [
                .isCreator, .isVerified, .isScam, .hasGeo, .isFake, .isGigagroup, .copyProtectionEnabled, .joinToSend,
                .requestToJoin, .isForum,
            ])
        #expect(
            channel.adminRights?.rights == [
                .canChangeInfo, .canDeleteMessages, .canBanUsers, .canPinMessages, .canAddAdmins, .canBeAnonymous,
                .canManageCalls, .canManageTopics,
            ])
        let adminBits: Int32 = 1 << 0 | 1 << 3 | 1 << 4 | 1 << 7 | 1 << 9 | 1 << 10 | 1 << 11 | 1 << 13
        #expect(channel.adminRights?.rights.rawValue == adminBits, "the API's bits")
        #expect(
            channel.defaultBannedRights
                == TelegramChatBannedRights(flags: [.banSendMedia, .banSendPolls, .banPinMessages, .banSendVoice], untilDate: Int32.max))
        let bannedBits: Int32 = 1 << 2 | 1 << 8 | 1 << 17 | 1 << 23
        #expect(channel.defaultBannedRights?.flags.rawValue == bannedBits, "the API's bits")
        #expect(channel.bannedRights == nil)
        #expect(channel.photo.first?.resource == .cloudPeerPhoto(datacenterId: 1, peerId: 1_000_000_042, photoId: 3, big: false))
        #expect(channel.photo.first?.immediateThumbnailData == [7])
        #expect(TelegramGroup(Self.megagroupApi) == nil, "a channel is not a basic group")
        guard case .inputChannel(let input)? = channel.apiInputChannel else {
            Issue.record("no input channel")
            return
        }
        #expect(input.channelId == 1_000_000_042 && input.accessHash == -77)
    }

    @Test func broadcast() throws {
        let api = Api.Chat.channel(
            .init(
                left: true, broadcast: true, signatures: true, hasLink: true, id: 7, accessHash: 70, title: "Tin tức",
                username: "tintuc", photo: .chatPhotoEmpty, date: 5,
                bannedRights: .chatBannedRights(.init(viewMessages: true, sendMessages: true, untilDate: 1_900_000_000))))
        let channel = try #require(TelegramChannel(api))
        #expect(channel.info == .broadcast([.messagesShouldHaveSignatures, .hasDiscussionGroup]))
        #expect(channel.participationStatus == .left && channel.username == "tintuc" && channel.photo.isEmpty)
        #expect(channel.flags == [] && channel.adminRights == nil && channel.participantCount == nil)
        #expect(channel.bannedRights == TelegramChatBannedRights(flags: [.banReadMessages, .banSendMessages], untilDate: 1_900_000_000))
    }

    @Test func forbidden() throws {
        let broadcast = try #require(
            TelegramChannel(.channelForbidden(.init(broadcast: true, id: 8, accessHash: 80, title: "Closed", untilDate: 99))))
        #expect(broadcast.participationStatus == .kicked && broadcast.info == .broadcast([]) && broadcast.title == "Closed")
        #expect(broadcast.accessHash == .personal(80))
        #expect(broadcast.bannedRights == TelegramChatBannedRights(flags: [.banReadMessages], untilDate: 99))
        let group = try #require(TelegramChannel(.channelForbidden(.init(megagroup: true, id: 9, accessHash: 90, title: "G"))))
        #expect(group.info == .group([], slowModeTimeout: nil) && group.bannedRights?.untilDate == Int32.max)
        #expect(TelegramChannel(.chat(.init(id: 1, title: "basic", photo: .chatPhotoEmpty, participantsCount: 1, date: 1, version: 1))) == nil)
        #expect(TelegramChannel(.chatEmpty(.init(id: 1))) == nil)
    }

    @Test func minChannelKeepsWhatItLacks() throws {
        let stored = try #require(TelegramChannel(Self.megagroupApi))
        let min = Api.Chat.channel(
            .init(megagroup: true, min: true, id: 1_000_000_042, accessHash: 5, title: "Renamed", photo: .chatPhotoEmpty, date: 0))
        let merged = try #require(TelegramChannel.merged(previous: stored, with: min))
        #expect(merged.title == "Renamed" && merged.username == nil && merged.photo.isEmpty)
        #expect(merged.accessHash == .personal(-77), "the min channel's hash is only valid inside its message")
        #expect(merged.adminRights == stored.adminRights && merged.participationStatus == .member)
        #expect(merged.creationDate == stored.creationDate && merged.info == stored.info)
        #expect(!merged.flags.contains(.isVerified) && merged.flags.contains(.isCreator))
        // Unknown before: the min channel is stored as it is, with a hash marked as message-scoped.
        #expect(TelegramChannel.merged(previous: nil, with: min)?.accessHash == .genericPublic(5))
        // A full channel replaces what was stored.
        #expect(TelegramChannel.merged(previous: merged, with: Self.megagroupApi) == stored)
    }

    @Test func channelPosts() throws {
        let me = PeerId.user(1)
        let post = Api.Message.message(
            .init(
                post: true, id: 500, peerId: .peerChannel(.init(channelId: 7)), date: 1_000, message: "Tin mới",
                views: 1_234, forwards: 5, editDate: 1_100, postAuthor: "Biên tập"))
        let stored = try #require(StoreMessage(apiMessage: post, accountPeerId: me))
        #expect(stored.id == .id(MessageId(peerId: .channel(7), namespace: Namespaces.Message.cloud, id: 500)))
        #expect(stored.authorId == .channel(7) && stored.flags == [.incoming])
        #expect(stored.attributes.compactMap { $0 as? ViewCountMessageAttribute } == [ViewCountMessageAttribute(count: 1_234)])
        #expect(
            stored.attributes.compactMap { $0 as? AuthorSignatureMessageAttribute }
                == [AuthorSignatureMessageAttribute(signature: "Biên tập")])
        #expect(stored.attributes.compactMap { $0 as? EditedMessageAttribute } == [EditedMessageAttribute(date: 1_100, isHidden: false)])

        // Our own post as the channel's admin: outgoing, still the channel's.
        let ours = Api.Message.message(.init(out: true, post: true, id: 501, peerId: .peerChannel(.init(channelId: 7)), date: 1, message: "x"))
        let own = try #require(StoreMessage(apiMessage: ours, accountPeerId: me))
        #expect(own.authorId == .channel(7) && own.flags == [])

        // A supergroup message has its sender, and no views.
        let inGroup = Api.Message.message(
            .init(id: 3, fromId: .peerUser(.init(userId: 2)), peerId: .peerChannel(.init(channelId: 42)), date: 1, message: "hi"))
        let groupMessage = try #require(StoreMessage(apiMessage: inGroup, accountPeerId: me))
        #expect(groupMessage.id == .id(MessageId(peerId: .channel(42), namespace: 0, id: 3)))
        #expect(groupMessage.authorId == .user(2) && groupMessage.attributes.isEmpty)
        let ourInGroup = Api.Message.message(.init(out: true, id: 4, peerId: .peerChannel(.init(channelId: 42)), date: 1, message: "me"))
        #expect(try #require(StoreMessage(apiMessage: ourInGroup, accountPeerId: me)).authorId == me)
    }

    /// Rights sent back to the server (`channels.editAdmin`, `channels.editBanned`) are the API's flags for exactly the
    /// rights held, and read back the same.
    @Test func rightsBackToTheAPI() throws {
        let admin = TelegramChatAdminRights(rights: [.canPostMessages, .canBanUsers, .canAddAdmins, .canManageTopics])
        guard case .chatAdminRights(let flags) = admin.apiAdminRights else { throw CancellationError() }
        #expect(flags.postMessages && flags.banUsers && flags.addAdmins && flags.manageTopics)
        #expect(!flags.changeInfo && !flags.editMessages && !flags.deleteMessages && !flags.anonymous)
        #expect(TelegramChatAdminRights(admin.apiAdminRights) == admin)
        let banned = TelegramChatBannedRights(flags: [.banReadMessages, .banSendText, .banAddMembers], untilDate: 1_900)
        guard case .chatBannedRights(let ban) = banned.apiBannedRights else { throw CancellationError() }
        #expect(ban.viewMessages && ban.sendPlain && ban.inviteUsers && ban.untilDate == 1_900)
        #expect(!ban.sendMessages && !ban.sendMedia && !ban.pinMessages)
        #expect(TelegramChatBannedRights(banned.apiBannedRights) == banned)
        let everything = TelegramChatAdminRights(
            rights: [
                .canChangeInfo, .canPostMessages, .canEditMessages, .canDeleteMessages, .canBanUsers, .canInviteUsers,
                .canPinMessages, .canAddAdmins, .canBeAnonymous, .canManageCalls, .canManageTopics,
            ])
        #expect(TelegramChatAdminRights(everything.apiAdminRights) == everything)
    }
}
