import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// After a catch-up, the stored channels whose server pts is ahead of their stored one: what
/// `AccountStateManager` asks `getChannelDifference` for even when `updates.getDifference` did not name them.
///
/// `updates.getDifference` names the channels changed since the account's `date` (`updateChannelTooLong`), and a date
/// is only a second: a post dated in an earlier second than the one the account last heard from the server, but
/// stored after it (its date taken before its write was queued), is named by no later difference. The dialogs' `pts`
/// says it without dates, as TDLib compares a dialog's pts with its own when it loads dialogs (`on_get_dialogs`) and
/// Telegram-iOS resets channel states from them (`resetChannels`).
enum ChannelPtsCheck {
    /// One stored channel: its input (access hash) and the pts stored as its `ChannelState`.
    struct Stored {
        let channelId: Int64
        let input: Api.InputChannel
        let pts: Int32
    }

    /// How many channels one `messages.getPeerDialogs` asks about.
    static let batch = 100

    /// The channels in the chat list with a stored `ChannelState`.
    static func storedChannels(_ tx: Transaction) throws -> [Stored] {
        var found: [Stored] = []
        var before: ChatListIndex?
        while true {
            let page = try tx.chatListEntries(before: before, count: 500)
            for index in page {
                let peerId = index.messageIndex.id.peerId
                guard peerId.namespace == Namespaces.Peer.cloudChannel,
                    let state = try tx.getPeerChatState(peerId) as? ChannelState,
                    let input = (try tx.getPeer(peerId) as? TelegramChannel)?.apiInputChannel
                else { continue }
                found.append(Stored(channelId: peerId.id.rawValue, input: input, pts: state.pts))
            }
            guard page.count == 500, let last = page.last else { break }
            before = last
        }
        return found
    }

    /// The channels of `serverPts` (channel id → the server's pts) whose stored pts in `tx` is behind.
    static func behind(_ serverPts: [Int64: Int32], _ tx: Transaction) throws -> [(channelId: Int64, pts: Int32)] {
        try serverPts.sorted { $0.key < $1.key }.compactMap { id, pts in
            let stored = (try tx.getPeerChatState(.channel(id)) as? ChannelState)?.pts ?? 0
            return pts > stored ? (id, pts) : nil
        }
    }

    /// Each channel dialog's pts in a `messages.getPeerDialogs` answer.
    static func dialogPts(_ answer: Api.messages.PeerDialogs) -> [Int64: Int32] {
        guard case .peerDialogs(let body) = answer else { return [:] }
        var found: [Int64: Int32] = [:]
        for case .dialog(let dialog) in body.dialogs {
            if case .peerChannel(let channel) = dialog.peer, let pts = dialog.pts { found[channel.channelId] = pts }
        }
        return found
    }
}
