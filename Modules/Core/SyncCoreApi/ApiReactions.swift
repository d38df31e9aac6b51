import Postbox
public import SyncCore
public import TelegramApi

extension ReactionsMessageAttribute {
    /// `messageReactions` as stored (Telegram-iOS `ReactionsMessageAttribute(apiReactions:)`): standard emoji only
    /// (custom emoji and paid reactions are not shown by this client), the server's order kept.
    public init(apiReactions: Api.MessageReactions) {
        guard case .messageReactions(let body) = apiReactions else {
            self.init(canViewList: false, reactions: [])
            return
        }
        let reactions = body.results.compactMap { result -> Reaction? in
            guard case .reactionCount(let count) = result, case .reactionEmoji(let emoji) = count.reaction else {
                return nil
            }
            return Reaction(emoticon: emoji.emoticon, count: count.count, chosenOrder: count.chosenOrder)
        }
        let recent = (body.recentReactions ?? []).compactMap { recent -> RecentPeer? in
            guard case .messagePeerReaction(let peer) = recent, case .reactionEmoji(let emoji) = peer.reaction else {
                return nil
            }
            return RecentPeer(
                emoticon: emoji.emoticon, peerId: PeerId(peer.peerId), isLarge: peer.big, isMy: peer.my,
                timestamp: peer.date)
        }
        self.init(canViewList: body.canSeeList, reactions: reactions, recentPeers: recent)
    }
}
