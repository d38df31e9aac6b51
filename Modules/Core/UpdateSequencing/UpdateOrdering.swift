import TelegramApi

/// Where an update sits in the account's sequences, read off its constructor (core.telegram.org "Working with
/// updates"): the common message box's `pts`/`pts_count`, or the secret-chat `qts`. Channel updates carry their own
/// channel's pts: `.none` here, `ChannelUpdatePosition` places them in their channel's sequence.
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

/// Whether an update fits its sequence: the one ordering rule of the common pts, qts, seq and every channel's pts
/// (core.telegram.org "Working with updates"): it applies when the local value moved by the update's count equals
/// the update's value, was already applied when that is beyond it, and leaves a gap otherwise.
enum SequenceFit: Equatable {
    case apply, skip, gap

    /// `expected` is the local value plus the update's count; `actual` the value the update moves the sequence to.
    init(expected: Int32, actual: Int32) {
        self = expected == actual ? .apply : expected > actual ? .skip : .gap
    }
}
