import Postbox
import SyncCore
import TLRuntime
import TelegramApi
import Testing

@testable import SyncCoreApi

/// Each conversion from the generated API types, checked on every field it maps.
@Suite struct ApiConversionTests {
    @Test func user() throws {
        let api = Api.User.user(
            .init(
                contact: true, mutualContact: true, deleted: false, bot: true, verified: true, support: true, scam: true,
                fake: true, premium: true, id: 1_000_001, accessHash: 42, firstName: "Anh", lastName: "Nguyễn",
                username: "anh_ng", phone: "84123",
                photo: .userProfilePhoto(.init(photoId: 9, strippedThumb: [1, 2, 3], dcId: 2))))
        let user = TelegramUser(api)
        #expect(user.id == .user(1_000_001))
        #expect(user.accessHash == .personal(42))
        #expect(user.firstName == "Anh" && user.lastName == "Nguyễn" && user.username == "anh_ng" && user.phone == "84123")
        #expect(user.flags == [.isContact, .isMutualContact, .isBot, .isVerified, .isSupport, .isScam, .isFake, .isPremium])
        #expect(user.photoId == 9)
        #expect(user.photo.count == 2)
        #expect(user.photo[0].resource == .cloudPeerPhoto(datacenterId: 2, peerId: 1_000_001, photoId: 9, big: false))
        #expect(user.photo[0].immediateThumbnailData == [1, 2, 3])
        #expect(user.photo[1].resource == .cloudPeerPhoto(datacenterId: 2, peerId: 1_000_001, photoId: 9, big: true))
        #expect(TelegramUser(.userEmpty(.init(id: 5))) == TelegramUser(id: .user(5), accessHash: nil, firstName: nil, lastName: nil, username: nil, phone: nil))
        #expect(TelegramUser(.user(.init(deleted: true, id: 6))).flags == [.isDeleted])
    }

    @Test func minUserKeepsWhatItLacks() {
        let stored = TelegramUser(
            id: .user(7), accessHash: .personal(1), firstName: "Old", lastName: nil, username: nil, phone: "123",
            photoId: 4)
        let min = Api.User.user(.init(min: true, id: 7, accessHash: 99, firstName: "New", username: "new_name"))
        #expect(TelegramUser.isMin(min))
        let merged = TelegramUser.merged(previous: stored, with: min)
        #expect(merged.firstName == "New" && merged.username == "new_name")
        #expect(merged.phone == "123" && merged.accessHash == .personal(1) && merged.photoId == 4)
        #expect(TelegramUser.merged(previous: nil, with: min).accessHash == .genericPublic(99))
        let full = Api.User.user(.init(id: 7, accessHash: 5, firstName: "Full"))
        #expect(TelegramUser.merged(previous: stored, with: full).accessHash == .personal(5))
        #expect(TelegramUser.merged(previous: stored, with: full).phone == nil)
    }

    @Test func group() throws {
        let api = Api.Chat.chat(
            .init(
                creator: true, left: true, deactivated: true, id: 55, title: "Nhóm",
                photo: .chatPhoto(.init(photoId: 3, strippedThumb: [7], dcId: 1)), participantsCount: 4, date: 100,
                version: 2, migratedTo: .inputChannel(.init(channelId: 9, accessHash: 1))))
        let group = try #require(TelegramGroup(api))
        #expect(group.id == .group(55) && group.title == "Nhóm" && group.participantCount == 4)
        #expect(group.membership == .left && group.isCreator && group.isDeactivated)
        #expect(group.migratedTo == .channel(9) && group.creationDate == 100 && group.version == 2)
        #expect(group.photo.first?.resource == .cloudPeerPhoto(datacenterId: 1, peerId: 55, photoId: 3, big: false))
        #expect(group.photo.first?.immediateThumbnailData == [7])
        let forbidden = try #require(TelegramGroup(.chatForbidden(.init(id: 56, title: "Gone"))))
        #expect(forbidden.membership == .removed && forbidden.title == "Gone")
        #expect(TelegramGroup(.chatEmpty(.init(id: 1))) == nil)
    }

    static let apiPhoto = Api.Photo.photo(
        .init(
            hasStickers: true, id: 77, accessHash: -5, fileReference: [1, 2], date: 1_700_000_000,
            sizes: [
                .photoStrippedSize(.init(type: "i", bytes: [1, 40, 30, 9])),
                .photoSize(.init(type: "s", w: 90, h: 60, size: 1_234)),
                .photoCachedSize(.init(type: "m", w: 320, h: 213, bytes: [4, 5, 6])),
                .photoSizeProgressive(.init(type: "y", w: 1280, h: 853, sizes: [1_000, 30_000, 90_000])),
                .photoPathSize(.init(type: "j", bytes: [0])),
            ], dcId: 2))

    @Test func photo() throws {
        let image = try #require(TelegramMediaImage(Self.apiPhoto))
        #expect(image.imageId == MediaId(namespace: Namespaces.Media.cloudImage, id: 77))
        #expect(image.immediateThumbnailData == [1, 40, 30, 9])
        #expect(image.reference == .init(accessHash: -5, fileReference: [1, 2]))
        #expect(image.date == 1_700_000_000 && image.hasStickers)
        #expect(image.representations.map(\.type) == ["s", "m", "y"])
        #expect(image.representations[0].dimensions == PixelDimensions(width: 90, height: 60))
        #expect(image.representations[0].byteSize == 1_234)
        #expect(
            image.representations[0].resource
                == .cloudPhotoSize(datacenterId: 2, photoId: 77, accessHash: -5, fileReference: [1, 2], sizeSpec: "s"))
        #expect(image.representations[1].cachedBytes == [4, 5, 6])
        #expect(image.representations[2].progressiveSizes == [1_000, 30_000, 90_000])
        #expect(image.representations[2].byteSize == 90_000)
        #expect(TelegramMediaImage(.photoEmpty(.init(id: 1))) == nil)
    }

    @Test func documents() throws {
        let waveform = (0..<63).map { UInt8($0) }
        let voice = try #require(
            TelegramMediaFile(
                .document(
                    .init(
                        id: 88, accessHash: 3, fileReference: [5], date: 1, mimeType: "audio/ogg", size: 6_000,
                        thumbs: [.photoStrippedSize(.init(type: "i", bytes: [8])), .photoSize(.init(type: "m", w: 1, h: 1, size: 2))],
                        dcId: 4,
                        attributes: [
                            .documentAttributeAudio(.init(voice: true, duration: 7, title: "t", performer: "p", waveform: waveform)),
                            .documentAttributeFilename(.init(fileName: "v.ogg")),
                        ]))))
        #expect(voice.fileId == MediaId(namespace: Namespaces.Media.cloudFile, id: 88))
        #expect(voice.resource == .cloudDocument(datacenterId: 4, fileId: 88, accessHash: 3, fileReference: [5], size: 6_000))
        #expect(voice.mimeType == "audio/ogg" && voice.size == 6_000 && voice.immediateThumbnailData == [8])
        #expect(
            voice.previewRepresentations.map(\.resource) == [
                .cloudDocumentSize(datacenterId: 4, documentId: 88, accessHash: 3, fileReference: [5], sizeSpec: "m")
            ])
        #expect(
            voice.attributes == [
                .audio(isVoice: true, duration: 7, title: "t", performer: "p", waveform: waveform), .fileName("v.ogg"),
            ])
        #expect(voice.isVoice && voice.fileName == "v.ogg")

        let attributes: [Api.DocumentAttribute] = [
            .documentAttributeImageSize(.init(w: 512, h: 512)), .documentAttributeAnimated,
            .documentAttributeSticker(.init(mask: true, alt: "😀", stickerset: .inputStickerSetID(.init(id: 1, accessHash: 2)))),
            .documentAttributeSticker(.init(alt: "a", stickerset: .inputStickerSetShortName(.init(shortName: "Animals")))),
            .documentAttributeSticker(.init(alt: "b", stickerset: .inputStickerSetEmpty)),
            .documentAttributeVideo(.init(roundMessage: true, supportsStreaming: true, nosound: true, duration: 2.5, w: 240, h: 240)),
            .documentAttributeHasStickers,
        ]
        #expect(
            attributes.map(TelegramMediaFileAttribute.init) == [
                .imageSize(PixelDimensions(width: 512, height: 512)), .animated,
                .sticker(displayText: "😀", packReference: .id(id: 1, accessHash: 2), isMask: true),
                .sticker(displayText: "a", packReference: .name("Animals"), isMask: false),
                .sticker(displayText: "b", packReference: nil, isMask: false),
                .video(duration: 2.5, size: PixelDimensions(width: 240, height: 240), isRoundMessage: true, supportsStreaming: true, noSound: true),
                .hasLinkedStickers,
            ])
    }

    @Test func actions() {
        let cases: [(Api.MessageAction, TelegramMediaActionType)] = [
            (.messageActionChatCreate(.init(title: "G", users: [1, 2])), .groupCreated(title: "G")),
            (.messageActionChannelCreate(.init(title: "C")), .groupCreated(title: "C")),
            (.messageActionChatAddUser(.init(users: [3, 4])), .addedMembers(peerIds: [.user(3), .user(4)])),
            (.messageActionChatDeleteUser(.init(userId: 5)), .removedMembers(peerIds: [.user(5)])),
            (.messageActionChatJoinedByLink(.init(inviterId: 6)), .joinedByLink(inviter: .user(6))),
            (.messageActionChatJoinedByRequest, .joinedByRequest),
            (.messageActionChatEditTitle(.init(title: "New")), .titleUpdated(title: "New")),
            (.messageActionChatDeletePhoto, .photoUpdated(image: false)),
            (.messageActionPinMessage, .pinnedMessageUpdated),
            (.messageActionHistoryClear, .historyCleared),
            (.messageActionScreenshotTaken, .historyScreenshot),
            (.messageActionSetMessagesTTL(.init(period: 60)), .messageAutoremoveTimeoutUpdated(period: 60)),
            (.messageActionContactSignUp, .contactSignUp),
            (.messageActionCustomAction(.init(message: "hi")), .customText(text: "hi")),
            (.messageActionEmpty, .unsupported(constructor: "messageActionEmpty")),
        ]
        for (api, expected) in cases { #expect(TelegramMediaActionType(api) == expected) }
    }

    @Test func entitiesBothWays() throws {
        let api: [Api.MessageEntity] = [
            .messageEntityBold(.init(offset: 0, length: 4)), .messageEntityItalic(.init(offset: 1, length: 2)),
            .messageEntityPre(.init(offset: 2, length: 3, language: "swift")), .messageEntityPre(.init(offset: 2, length: 3, language: "")),
            .messageEntityTextUrl(.init(offset: 3, length: 1, url: "https://t.me")),
            .messageEntityMentionName(.init(offset: 4, length: 2, userId: 77)),
            .messageEntityBlockquote(.init(collapsed: true, offset: 0, length: 9)),
            .messageEntityCustomEmoji(.init(offset: 5, length: 2, documentId: 12)),
            .messageEntityMention(.init(offset: 0, length: 1)), .messageEntityHashtag(.init(offset: 0, length: 1)),
            .messageEntityCashtag(.init(offset: 0, length: 1)), .messageEntityBotCommand(.init(offset: 0, length: 1)),
            .messageEntityUrl(.init(offset: 0, length: 1)), .messageEntityEmail(.init(offset: 0, length: 1)),
            .messageEntityPhone(.init(offset: 0, length: 1)), .messageEntityBankCard(.init(offset: 0, length: 1)),
            .messageEntityCode(.init(offset: 0, length: 1)), .messageEntityUnderline(.init(offset: 0, length: 1)),
            .messageEntityStrike(.init(offset: 0, length: 1)), .messageEntitySpoiler(.init(offset: 0, length: 1)),
        ]
        let entities = api.compactMap(MessageTextEntity.init)
        #expect(entities.count == api.count)
        #expect(entities[2].type == .pre(language: "swift") && entities[3].type == .pre(language: nil))
        #expect(entities[5] == MessageTextEntity(range: 4..<6, type: .textMention(peerId: .user(77))))
        #expect(entities[6].type == .blockQuote(isCollapsed: true) && entities[6].range == 0..<9)
        // Back to the API: the same bytes, except the mention, which needs the user's access hash.
        let inputUser = Api.InputUser.inputUser(.init(userId: 77, accessHash: 1))
        let back = entities.compactMap { $0.apiEntity(inputUser: { $0 == .user(77) ? inputUser : nil }) }
        #expect(back.count == api.count)
        for (index, (original, returned)) in zip(api, back).enumerated() where index != 5 && index != 3 {
            #expect(serialized(original) == serialized(returned), "entity \(index)")
        }
        #expect(entities[5].apiEntity() == nil)
        #expect(MessageTextEntity(.messageEntityBold(.init(offset: -1, length: 2))) == nil)
    }

    @Test func messages() throws {
        let me = PeerId.user(1)
        let incoming = Api.Message.message(
            .init(
                mentioned: true, mediaUnread: true, editHide: true, pinned: true, id: 10, peerId: .peerUser(.init(userId: 2)),
                fwdFrom: .messageFwdHeader(.init(fromId: .peerChannel(.init(channelId: 8)), date: 5, channelPost: 99, postAuthor: "Ed")),
                replyTo: .messageReplyHeader(.init(quote: true, replyToMsgId: 9, replyToTopId: 3, quoteText: "q")),
                date: 1_000, message: "see https://t.me", media: .messageMediaPhoto(.init(photo: Self.apiPhoto)),
                entities: [.messageEntityUrl(.init(offset: 4, length: 12))], editDate: 1_100,
                groupedId: 555))
        let stored = try #require(StoreMessage(apiMessage: incoming, accountPeerId: me))
        #expect(stored.id == .id(MessageId(peerId: .user(2), namespace: 0, id: 10)))
        #expect(stored.authorId == .user(2) && stored.flags == [.incoming] && stored.timestamp == 1_000)
        #expect(stored.groupingKey == 555 && stored.text == "see https://t.me")
        #expect(stored.tags == [.photoOrVideo, .photo, .webPage, .pinned, .unseenPersonalMessage])
        #expect(stored.media.first as? TelegramMediaImage == TelegramMediaImage(Self.apiPhoto))
        let attributes = stored.attributes
        #expect((attributes[0] as? TextEntitiesMessageAttribute)?.entities == [MessageTextEntity(range: 4..<16, type: .url)])
        #expect(
            attributes[1] as? ReplyMessageAttribute
                == ReplyMessageAttribute(
                    messageId: MessageId(peerId: .user(2), namespace: 0, id: 9),
                    threadMessageId: MessageId(peerId: .user(2), namespace: 0, id: 3), quoteText: "q"))
        #expect(attributes[2] as? EditedMessageAttribute == EditedMessageAttribute(date: 1_100, isHidden: true))
        #expect(
            attributes[3] as? ForwardSourceInfoAttribute
                == ForwardSourceInfoAttribute(
                    authorId: .channel(8), date: 5, sourceMessageId: MessageId(peerId: .channel(8), namespace: 0, id: 99),
                    authorSignature: "Ed"))

        let outgoing = Api.Message.message(.init(out: true, id: 11, peerId: .peerUser(.init(userId: 2)), date: 1, message: "hi"))
        let sent = try #require(StoreMessage(apiMessage: outgoing, accountPeerId: me))
        #expect(sent.authorId == me && sent.flags == [] && sent.tags == [] && sent.attributes.isEmpty)

        let inGroup = Api.Message.message(
            .init(id: 12, fromId: .peerUser(.init(userId: 3)), peerId: .peerChat(.init(chatId: 40)), date: 1, message: "x"))
        let groupMessage = try #require(StoreMessage(apiMessage: inGroup, accountPeerId: me))
        #expect(groupMessage.id.peerId == .group(40) && groupMessage.authorId == .user(3))

        let service = Api.Message.messageService(
            .init(id: 13, fromId: .peerUser(.init(userId: 3)), peerId: .peerChat(.init(chatId: 40)), date: 2,
                  action: .messageActionChatAddUser(.init(users: [4]))))
        let serviceMessage = try #require(StoreMessage(apiMessage: service, accountPeerId: me))
        #expect((serviceMessage.media.first as? TelegramMediaAction)?.action == .addedMembers(peerIds: [.user(4)]))
        #expect(serviceMessage.flags == [.incoming])
        #expect(StoreMessage(apiMessage: .messageEmpty(.init(id: 1)), accountPeerId: me) == nil)
    }

    @Test func voiceAndFileTags() {
        func document(_ attributes: [Api.DocumentAttribute]) -> [Media] {
            telegramMedia(
                .messageMediaDocument(
                    .init(document: .document(.init(id: 1, accessHash: 1, fileReference: [], date: 0, mimeType: "x", size: 1, dcId: 1, attributes: attributes)))))
        }
        #expect(messageTags(media: document([.documentAttributeAudio(.init(voice: true, duration: 1))]), entities: [], isPinned: false, isUnseenMention: false) == [.voiceOrInstantVideo, .voice])
        #expect(messageTags(media: document([.documentAttributeAudio(.init(duration: 1))]), entities: [], isPinned: false, isUnseenMention: false) == [.music])
        #expect(messageTags(media: document([.documentAttributeVideo(.init(roundMessage: true, duration: 1, w: 1, h: 1))]), entities: [], isPinned: false, isUnseenMention: false) == [.voiceOrInstantVideo, .roundVideo])
        #expect(messageTags(media: document([.documentAttributeVideo(.init(duration: 1, w: 1, h: 1))]), entities: [], isPinned: false, isUnseenMention: false) == [.photoOrVideo, .video])
        #expect(messageTags(media: document([.documentAttributeAnimated, .documentAttributeVideo(.init(duration: 1, w: 1, h: 1))]), entities: [], isPinned: false, isUnseenMention: false) == [.gif])
        #expect(messageTags(media: document([.documentAttributeFilename(.init(fileName: "a.pdf"))]), entities: [], isPinned: false, isUnseenMention: false) == [.file])
    }

    /// A video sticker (`video/webm` with the sticker and video attributes) is kept as a sticker file with its video
    /// facts, and, like every sticker, gets no shared-media tag (Telegram-iOS `tagsForStoreMessage`).
    @Test func aVideoStickerIsAStickerFile() throws {
        let set = Api.InputStickerSet.inputStickerSetID(.init(id: 7, accessHash: 8))
        let attributes: [Api.DocumentAttribute] = [
            .documentAttributeSticker(.init(alt: "🟣", stickerset: set)),
            .documentAttributeVideo(.init(duration: 1, w: 512, h: 512)),
            .documentAttributeFilename(.init(fileName: "disc.webm")),
        ]
        let media = telegramMedia(
            .messageMediaDocument(
                .init(document: .document(.init(id: 1, accessHash: 1, fileReference: [], date: 0, mimeType: "video/webm", size: 12_878, dcId: 2, attributes: attributes)))))
        let file = try #require(media.first as? TelegramMediaFile)
        #expect(file.isVideoSticker && file.isSticker && !file.isAnimatedSticker && file.isVideo)
        #expect(file.attributes.contains(.sticker(displayText: "🟣", packReference: .id(id: 7, accessHash: 8), isMask: false)))
        #expect(file.attributes.contains { if case .video(1, PixelDimensions(width: 512, height: 512), false, _, _) = $0 { true } else { false } })
        #expect(messageTags(media: media, entities: [], isPinned: false, isUnseenMention: false) == [])
    }
}

private func serialized(_ entity: Api.MessageEntity) -> [UInt8] { entity.serialized() }
