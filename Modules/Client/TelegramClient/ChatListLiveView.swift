import Dispatch
public import Postbox
import SwiftSignalKit
public import TelegramCore

/// One emission of the live chat list (`tg watch-chats`): the chats as the view holds them, and when the view emitted
/// them.
public struct ChatListUpdate: Codable, Equatable, Sendable {
    /// The monotonic clock (the one `DispatchTime` reads, shared by every process on the machine) when the view
    /// emitted: comparable with `notification-service --trace`'s write times.
    public var monotonicNs: UInt64
    /// The top chats, newest first, as `tg chats` lists them.
    public var chats: [ChatSummary]

    public init(monotonicNs: UInt64, chats: [ChatSummary]) {
        self.monotonicNs = monotonicNs
        self.chats = chats
    }
}

extension ChatListing {
    /// The account's chat list kept open as a live Postbox view: the first update is the list as opened, then one per
    /// change — this process's writes (the account's updates when it is started) and other processes' (the
    /// notification service's, through Postbox's cross-process change notification, without polling). With
    /// `fetchingPages`, the server's `messages.getDialogs` pages are stored while the view is not full
    /// (`Account.chatListView`); without it only what is stored is shown (an account that is not started). Ending the
    /// iteration closes the view.
    public static func live(_ account: Account, limit: Int, fetchingPages: Bool) -> AsyncStream<ChatListUpdate> {
        let signal = fetchingPages ? account.chatListView(count: limit) : account.postbox.tailChatListView(count: limit)
        return AsyncStream { continuation in
            let disposable = signal.start(next: { view in
                // Stamped on the Postbox queue as the view emits, before anything else is done with it.
                let now = DispatchTime.now().uptimeNanoseconds
                continuation.yield(ChatListUpdate(monotonicNs: now, chats: summaries(view, account: account)))
            })
            continuation.onTermination = { _ in disposable.dispose() }
        }
    }
}
