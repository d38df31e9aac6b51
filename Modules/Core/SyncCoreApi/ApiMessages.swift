public import Postbox
public import SyncCore
public import TelegramApi

extension Api.Message {
    /// The chat the message belongs to, from this account's side; `nil` for `messageEmpty` without a peer.
    public var chatPeerId: PeerId? {
        switch self {
        case .message(let message): return PeerId(message.peerId)
        case .messageService(let message): return PeerId(message.peerId)
        case .messageEmpty(let empty): return empty.peerId.map(PeerId.init)
        }
    }

    /// The message's id in its chat's cloud namespace.
    public var cloudId: MessageId? {
        switch self {
        case .message(let message):
            return MessageId(peerId: PeerId(message.peerId), namespace: Namespaces.Message.cloud, id: message.id)
        case .messageService(let message):
            return MessageId(peerId: PeerId(message.peerId), namespace: Namespaces.Message.cloud, id: message.id)
        case .messageEmpty: return nil
        }
    }
}

/// The tags of a message with this media and these entities (Telegram-iOS `tagsForStoreMessage`).
public func messageTags(
    media: [Media], entities: [MessageTextEntity], isPinned: Bool, isUnseenMention: Bool
) -> MessageTags {
    var tags: MessageTags = []
    for item in media {
        if item is TelegramMediaImage {
            tags.formUnion([.photoOrVideo, .photo])
        } else if let file = item as? TelegramMediaFile {
            // A sticker has no tag, whatever else it carries (a video sticker's video attribute): Telegram-iOS
            // `tagsForStoreMessage` clears the tag on `.Sticker`.
            if file.isSticker { continue }
            if file.isVoice {
                tags.formUnion([.voiceOrInstantVideo, .voice])
            } else if file.isInstantVideo {
                tags.formUnion([.voiceOrInstantVideo, .roundVideo])
            } else if file.isAnimated {
                tags.insert(.gif)
            } else if file.isVideo {
                tags.formUnion([.photoOrVideo, .video])
            } else if file.isMusic {
                tags.insert(.music)
            } else {
                tags.insert(.file)
            }
        }
    }
    if entities.contains(where: { $0.type == .url || { if case .textUrl = $0 { true } else { false } }($0.type) }) {
        tags.insert(.webPage)
    }
    if isPinned { tags.insert(.pinned) }
    if isUnseenMention { tags.insert(.unseenPersonalMessage) }
    return tags
}

extension StoreMessage {
    /// A message from the API as Postbox stores it (Telegram-iOS `StoreMessage(apiMessage:accountPeerId:)`):
    /// the chat from this account's side, the author, incoming or not, tags, the album key, the text's entities,
    /// the reply, the edit date and where it was forwarded from. Channel messages keep their channel's own ids;
    /// a channel post (`post`) without `from_id` has the channel as its author, and carries its view count
    /// (`ViewCountMessageAttribute`) and signature (`AuthorSignatureMessageAttribute`). `nil` for `messageEmpty`.
    public init?(apiMessage: Api.Message, accountPeerId: PeerId) {
        switch apiMessage {
        case .messageEmpty:
            return nil
        case .message(let message):
            let peerId = PeerId(message.peerId)
            // A channel post without `from_id` is the channel's, ours or not (Telegram-iOS shows the channel).
            let authorId =
                message.fromId.map(PeerId.init) ?? (message.out && !message.post ? accountPeerId : peerId)
            var attributes: [MessageAttribute] = []
            let entities = (message.entities ?? []).compactMap(MessageTextEntity.init)
            if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
            if let reply = message.replyTo.flatMap({ ReplyMessageAttribute(message: $0, chat: peerId) }) {
                attributes.append(reply)
            }
            if let editDate = message.editDate {
                attributes.append(EditedMessageAttribute(date: editDate, isHidden: message.editHide))
            }
            if let forward = message.fwdFrom.map(ForwardSourceInfoAttribute.init) { attributes.append(forward) }
            if let views = message.views { attributes.append(ViewCountMessageAttribute(count: views)) }
            if let signature = message.postAuthor {
                attributes.append(AuthorSignatureMessageAttribute(signature: signature))
            }
            if let reactions = message.reactions {
                attributes.append(ReactionsMessageAttribute(apiReactions: reactions))
            }
            let media = telegramMedia(message.media)
            // Voice notes and round videos carry whether they were played (Telegram-iOS adds the attribute to
            // both, consumed unless `media_unread`).
            if media.contains(where: { ($0 as? TelegramMediaFile).map { $0.isVoice || $0.isInstantVideo } ?? false }) {
                attributes.append(ConsumableContentMessageAttribute(consumed: !message.mediaUnread))
            }
            var flags: MessageFlags = []
            if !message.out { flags.insert(.incoming) }
            self.init(
                id: .id(MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: message.id)),
                groupingKey: message.groupedId, timestamp: message.date, flags: flags,
                tags: messageTags(
                    media: media, entities: entities, isPinned: message.pinned,
                    isUnseenMention: message.mentioned && message.mediaUnread),
                authorId: authorId, text: message.message, attributes: attributes, media: media)
        case .messageService(let message):
            let peerId = PeerId(message.peerId)
            let authorId =
                message.fromId.map(PeerId.init) ?? (message.out && !message.post ? accountPeerId : peerId)
            var attributes: [MessageAttribute] = []
            if let reply = message.replyTo.flatMap({ ReplyMessageAttribute(message: $0, chat: peerId) }) {
                attributes.append(reply)
            }
            self.init(
                id: .id(MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: message.id)),
                timestamp: message.date, flags: message.out ? [] : [.incoming], authorId: authorId, text: "",
                attributes: attributes, media: [TelegramMediaAction(action: TelegramMediaActionType(message.action))])
        }
    }
}

extension ReplyMessageAttribute {
    /// The reply header of a message in `chat`; `nil` for replies to stories and headers without a message id.
    public init?(message header: Api.MessageReplyHeader, chat: PeerId) {
        guard case .messageReplyHeader(let header) = header, let id = header.replyToMsgId else { return nil }
        let peer = header.replyToPeerId.map(PeerId.init) ?? chat
        self.init(
            messageId: MessageId(peerId: peer, namespace: Namespaces.Message.cloud, id: id),
            threadMessageId: header.replyToTopId.map {
                MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: $0)
            },
            quoteText: header.quote ? header.quoteText : nil)
    }
}

extension ForwardSourceInfoAttribute {
    /// A forward header from the API.
    public init(_ forwardHeader: Api.MessageFwdHeader) {
        let header: Api.MessageFwdHeader.Cons_messageFwdHeader
        switch forwardHeader {
        case .messageFwdHeader(let fields): header = fields
        }
        var source: MessageId?
        if let peer = header.savedFromPeer, let id = header.savedFromMsgId {
            source = MessageId(peerId: PeerId(peer), namespace: Namespaces.Message.cloud, id: id)
        } else if let peer = header.fromId, let id = header.channelPost {
            source = MessageId(peerId: PeerId(peer), namespace: Namespaces.Message.cloud, id: id)
        }
        self.init(
            authorId: header.fromId.map(PeerId.init), authorName: header.fromName, date: header.date,
            sourceMessageId: source, authorSignature: header.postAuthor)
    }
}
