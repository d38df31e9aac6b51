import TelegramApi

/// Where an update sits in the account's sequences, read off its constructor (core.telegram.org "Working with
/// updates"): the common message box's `pts`/`pts_count`, or the secret-chat `qts`. Channel updates carry their own
/// channel's pts and are applied as they come until supergroups and channels are served.
enum UpdatePosition: Equatable {
    /// Moves pts from `pts - count` to `pts`.
    case pts(pts: Int32, count: Int32)
    /// Moves qts to `qts` (one event).
    case qts(Int32)
    /// Not part of a sequence: applied as it comes.
    case none

    init(_ update: Api.Update) {
        switch update {
        case .updateNewMessage(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateDeleteMessages(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateReadHistoryInbox(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateReadHistoryOutbox(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateWebPage(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateReadMessagesContents(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateEditMessage(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateFolderPeers(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updatePinnedMessages(let u): self = .pts(pts: u.pts, count: u.ptsCount)
        case .updateNewEncryptedMessage(let u): self = .qts(u.qts)
        default: self = .none
        }
    }
}

extension Api.Message {
    /// The full message an `updateShortMessage` stands for, as its receiver (`selfUserId`) stores it.
    static func fromShort(_ short: Api.Updates.Cons_updateShortMessage, selfUserId: Int64) -> Api.Message {
        let me = Api.Peer.peerUser(.init(userId: selfUserId))
        let other = Api.Peer.peerUser(.init(userId: short.userId))
        return .message(
            .init(
                out: short.out, mentioned: short.mentioned, mediaUnread: short.mediaUnread, silent: short.silent,
                id: short.id, fromId: short.out ? me : other, peerId: other, fwdFrom: short.fwdFrom,
                viaBotId: short.viaBotId, replyTo: short.replyTo, date: short.date, message: short.message,
                entities: short.entities, ttlPeriod: short.ttlPeriod))
    }

    /// The full message an `updateShortChatMessage` stands for.
    static func fromShortChat(_ short: Api.Updates.Cons_updateShortChatMessage) -> Api.Message {
        .message(
            .init(
                out: short.out, mentioned: short.mentioned, mediaUnread: short.mediaUnread, silent: short.silent,
                id: short.id, fromId: .peerUser(.init(userId: short.fromId)),
                peerId: .peerChat(.init(chatId: short.chatId)),
                fwdFrom: short.fwdFrom, viaBotId: short.viaBotId, replyTo: short.replyTo, date: short.date,
                message: short.message, entities: short.entities, ttlPeriod: short.ttlPeriod))
    }
}
