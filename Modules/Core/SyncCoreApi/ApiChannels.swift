import Postbox
public import SyncCore
public import TelegramApi

extension TelegramChannel {
    /// A channel or supergroup from the API (Telegram-iOS `parseTelegramGroupOrChannel` in
    /// `TelegramCore/Sources/ApiUtils/ApiGroupOrChannel.swift`): `channel` and `channelForbidden` (banned: kicked, no
    /// reading); `nil` for basic groups. A `min` channel carries only what a message needs: use
    /// `merged(previous:with:)` so the stored access hash and membership are kept.
    public init?(_ chat: Api.Chat) {
        switch chat {
        case .channel(let channel):
            let info: TelegramChannelInfo
            if channel.megagroup {
                info = .group(channel.slowmodeEnabled ? [.slowModeEnabled] : [], slowModeTimeout: nil)
            } else {
                var flags: TelegramChannelBroadcastFlags = []
                if channel.signatures { flags.insert(.messagesShouldHaveSignatures) }
                if channel.hasLink { flags.insert(.hasDiscussionGroup) }
                info = .broadcast(flags)
            }
            var flags: TelegramChannelFlags = []
            if channel.creator { flags.insert(.isCreator) }
            if channel.verified { flags.insert(.isVerified) }
            if channel.scam { flags.insert(.isScam) }
            if channel.hasGeo { flags.insert(.hasGeo) }
            if channel.fake { flags.insert(.isFake) }
            if channel.gigagroup { flags.insert(.isGigagroup) }
            if channel.noforwards { flags.insert(.copyProtectionEnabled) }
            if channel.joinToSend { flags.insert(.joinToSend) }
            if channel.joinRequest { flags.insert(.requestToJoin) }
            if channel.forum { flags.insert(.isForum) }
            var photo: [TelegramMediaImageRepresentation] = []
            if case .chatPhoto(let chatPhoto) = channel.photo {
                photo = peerPhotoSizes(
                    dcId: chatPhoto.dcId, peerId: channel.id, photoId: chatPhoto.photoId,
                    stripped: chatPhoto.strippedThumb)
            }
            let username =
                channel.username
                ?? channel.usernames?.compactMap { username -> String? in
                    if case .username(let value) = username, value.active { return value.username }
                    return nil
                }.first
            self.init(
                id: .channel(channel.id),
                accessHash: channel.accessHash.map { channel.min ? .genericPublic($0) : .personal($0) },
                title: channel.title, username: username, photo: photo, creationDate: channel.date,
                participationStatus: channel.left ? .left : .member, info: info, flags: flags,
                adminRights: channel.adminRights.map(TelegramChatAdminRights.init),
                bannedRights: channel.bannedRights.map(TelegramChatBannedRights.init),
                defaultBannedRights: channel.defaultBannedRights.map(TelegramChatBannedRights.init),
                participantCount: channel.participantsCount)
        case .channelForbidden(let channel):
            self.init(
                id: .channel(channel.id), accessHash: .personal(channel.accessHash), title: channel.title,
                creationDate: 0, participationStatus: .kicked,
                info: channel.megagroup ? .group([], slowModeTimeout: nil) : .broadcast([]),
                bannedRights: TelegramChatBannedRights(
                    flags: [.banReadMessages], untilDate: channel.untilDate ?? Int32.max))
        default:
            return nil
        }
    }

    /// Whether the API chat is a `min` channel (partial: a message-scoped access hash, no membership or rights).
    public static func isMin(_ chat: Api.Chat) -> Bool {
        if case .channel(let channel) = chat { return channel.min }
        return false
    }

    /// A stored channel updated from the API (Telegram-iOS `mergeGroupOrChannel`): a full channel replaces it; a `min`
    /// channel changes only title, username, photo and the flags it carries, keeping the access hash, membership,
    /// rights, date and kind.
    public static func merged(previous: TelegramChannel?, with chat: Api.Chat) -> TelegramChannel? {
        guard let incoming = TelegramChannel(chat) else { return nil }
        guard isMin(chat), var result = previous else { return incoming }
        result.title = incoming.title
        result.username = incoming.username
        result.photo = incoming.photo
        for flag in [TelegramChannelFlags.isVerified, .isScam, .isFake, .isGigagroup] {
            if incoming.flags.contains(flag) { result.flags.insert(flag) } else { result.flags.remove(flag) }
        }
        if result.accessHash == nil { result.accessHash = incoming.accessHash }
        return result
    }
}

extension TelegramChatAdminRights {
    /// An administrator's rights from the API's `chatAdminRights`.
    public init(_ rights: Api.ChatAdminRights) {
        let value: Api.ChatAdminRights.Cons_chatAdminRights
        switch rights {
        case .chatAdminRights(let fields): value = fields
        }
        var flags: TelegramChatAdminRightsFlags = []
        let pairs: [(Bool, TelegramChatAdminRightsFlags)] = [
            (value.changeInfo, .canChangeInfo), (value.postMessages, .canPostMessages),
            (value.editMessages, .canEditMessages), (value.deleteMessages, .canDeleteMessages),
            (value.banUsers, .canBanUsers), (value.inviteUsers, .canInviteUsers), (value.pinMessages, .canPinMessages),
            (value.addAdmins, .canAddAdmins), (value.anonymous, .canBeAnonymous), (value.manageCall, .canManageCalls),
            (value.manageTopics, .canManageTopics),
        ]
        for (isSet, flag) in pairs where isSet { flags.insert(flag) }
        self.init(rights: flags)
    }
}

extension TelegramChatBannedRights {
    /// Restrictions from the API's `chatBannedRights`.
    public init(_ rights: Api.ChatBannedRights) {
        let value: Api.ChatBannedRights.Cons_chatBannedRights
        switch rights {
        case .chatBannedRights(let fields): value = fields
        }
        var flags: TelegramChatBannedRightsFlags = []
        let pairs: [(Bool, TelegramChatBannedRightsFlags)] = [
            (value.viewMessages, .banReadMessages), (value.sendMessages, .banSendMessages),
            (value.sendMedia, .banSendMedia), (value.sendStickers, .banSendStickers), (value.sendGifs, .banSendGifs),
            (value.sendGames, .banSendGames), (value.sendInline, .banSendInline), (value.embedLinks, .banEmbedLinks),
            (value.sendPolls, .banSendPolls), (value.changeInfo, .banChangeInfo), (value.inviteUsers, .banAddMembers),
            (value.pinMessages, .banPinMessages), (value.manageTopics, .banManageTopics),
            (value.sendPhotos, .banSendPhotos), (value.sendVideos, .banSendVideos),
            (value.sendRoundvideos, .banSendInstantVideos), (value.sendAudios, .banSendMusic),
            (value.sendVoices, .banSendVoice), (value.sendDocs, .banSendFiles), (value.sendPlain, .banSendText),
        ]
        for (isSet, flag) in pairs where isSet { flags.insert(flag) }
        self.init(flags: flags, untilDate: value.untilDate)
    }
}

extension TelegramChannel {
    /// The `InputChannel` naming this channel in calls (`updates.getChannelDifference` …); `nil` without an access
    /// hash.
    public var apiInputChannel: Api.InputChannel? {
        guard let accessHash else { return nil }
        return .inputChannel(.init(channelId: id.id.rawValue, accessHash: accessHash.value))
    }

    /// The `InputPeer` naming this channel; `nil` without an access hash.
    public var apiInputPeer: Api.InputPeer? {
        guard let accessHash else { return nil }
        return .inputPeerChannel(.init(channelId: id.id.rawValue, accessHash: accessHash.value))
    }
}

extension TelegramChatAdminRights {
    /// The API's `chatAdminRights` for these rights (Telegram-iOS `TelegramChatAdminRights.apiAdminRights`).
    public var apiAdminRights: Api.ChatAdminRights {
        .chatAdminRights(
            .init(
                changeInfo: rights.contains(.canChangeInfo), postMessages: rights.contains(.canPostMessages),
                editMessages: rights.contains(.canEditMessages), deleteMessages: rights.contains(.canDeleteMessages),
                banUsers: rights.contains(.canBanUsers), inviteUsers: rights.contains(.canInviteUsers),
                pinMessages: rights.contains(.canPinMessages), addAdmins: rights.contains(.canAddAdmins),
                anonymous: rights.contains(.canBeAnonymous), manageCall: rights.contains(.canManageCalls),
                manageTopics: rights.contains(.canManageTopics)))
    }
}

extension TelegramChatBannedRights {
    /// The API's `chatBannedRights` for these restrictions (Telegram-iOS `TelegramChatBannedRights.apiBannedRights`);
    /// `untilDate` 0 is for ever.
    public var apiBannedRights: Api.ChatBannedRights {
        .chatBannedRights(
            .init(
                viewMessages: flags.contains(.banReadMessages), sendMessages: flags.contains(.banSendMessages),
                sendMedia: flags.contains(.banSendMedia), sendStickers: flags.contains(.banSendStickers),
                sendGifs: flags.contains(.banSendGifs), sendGames: flags.contains(.banSendGames),
                sendInline: flags.contains(.banSendInline), embedLinks: flags.contains(.banEmbedLinks),
                sendPolls: flags.contains(.banSendPolls), changeInfo: flags.contains(.banChangeInfo),
                inviteUsers: flags.contains(.banAddMembers), pinMessages: flags.contains(.banPinMessages),
                manageTopics: flags.contains(.banManageTopics), sendPhotos: flags.contains(.banSendPhotos),
                sendVideos: flags.contains(.banSendVideos), sendRoundvideos: flags.contains(.banSendInstantVideos),
                sendAudios: flags.contains(.banSendMusic), sendVoices: flags.contains(.banSendVoice),
                sendDocs: flags.contains(.banSendFiles), sendPlain: flags.contains(.banSendText),
                untilDate: untilDate))
    }
}
