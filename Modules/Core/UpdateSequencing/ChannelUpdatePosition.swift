public import TelegramApi

/// Where a channel update sits in its channel's own pts sequence (core.telegram.org "Working with updates": each
/// channel and supergroup has its own pts, checked like the common one; Telegram-iOS `AccountStateManagementUtils`).
public struct ChannelUpdatePosition: Equatable, Sendable {
    /// How the update relates to the channel's pts.
    public enum Kind: Equatable, Sendable {
        /// Moves the channel's pts from `pts - count` to `pts`: new, edited and deleted messages, pins and unpins
        /// (`updatePinnedChannelMessages`).
        case pts(pts: Int32, count: Int32)
        /// The server has more for this channel than it pushes (`updateChannelTooLong`): fetch its difference now.
        /// `pts` is the server's, when it says.
        case tooLong(pts: Int32?)
        /// Applied as it comes: read marks, views, `updateChannel` (Telegram-iOS does not check their pts either).
        case unordered
    }

    public var channelId: Int64
    public var kind: Kind

    public init(channelId: Int64, kind: Kind) {
        self.channelId = channelId
        self.kind = kind
    }

    /// The position of a channel update; `nil` for updates of the common sequences (and for a channel-message
    /// update whose message is not in a channel).
    public init?(_ update: Api.Update) {
        switch update {
        case .updateNewChannelMessage(let u):
            guard let channel = u.message.channelId else { return nil }
            self.init(channelId: channel, kind: .pts(pts: u.pts, count: u.ptsCount))
        case .updateEditChannelMessage(let u):
            guard let channel = u.message.channelId else { return nil }
            self.init(channelId: channel, kind: .pts(pts: u.pts, count: u.ptsCount))
        case .updateDeleteChannelMessages(let u):
            self.init(channelId: u.channelId, kind: .pts(pts: u.pts, count: u.ptsCount))
        case .updatePinnedChannelMessages(let u):
            self.init(channelId: u.channelId, kind: .pts(pts: u.pts, count: u.ptsCount))
        case .updateChannelWebPage(let u):
            self.init(channelId: u.channelId, kind: .pts(pts: u.pts, count: u.ptsCount))
        case .updateChannelTooLong(let u):
            self.init(channelId: u.channelId, kind: .tooLong(pts: u.pts))
        case .updateReadChannelInbox(let u):
            self.init(channelId: u.channelId, kind: .unordered)
        case .updateReadChannelOutbox(let u):
            self.init(channelId: u.channelId, kind: .unordered)
        case .updateChannel(let u):
            self.init(channelId: u.channelId, kind: .unordered)
        case .updateChannelMessageViews(let u):
            self.init(channelId: u.channelId, kind: .unordered)
        default:
            return nil
        }
    }

    /// The channels named by the updates in `updates` (for the shell to load their stored pts first).
    public static func channelIds(in updates: Api.Updates) -> Set<Int64> {
        switch updates {
        case .updateShort(let short): return channelIds(in: [short.update])
        case .updates(let all): return channelIds(in: all.updates)
        case .updatesCombined(let all): return channelIds(in: all.updates)
        default: return []
        }
    }

    /// The channels named by `updates`.
    public static func channelIds(in updates: [Api.Update]) -> Set<Int64> {
        Set(updates.compactMap { ChannelUpdatePosition($0)?.channelId })
    }
}

extension Api.Message {
    /// The channel the message is in, if it is in one.
    var channelId: Int64? {
        let peer: Api.Peer?
        switch self {
        case .message(let message): peer = message.peerId
        case .messageService(let message): peer = message.peerId
        case .messageEmpty(let empty): peer = empty.peerId
        }
        if case .peerChannel(let channel)? = peer { return channel.channelId }
        return nil
    }
}
