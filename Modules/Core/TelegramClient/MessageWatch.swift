public import Postbox
import SwiftSignalKit
import SyncCore
public import TelegramCore

/// New messages as they are stored, in every chat of the account's chat list (the top `chats`): each emission of the
/// chat-list view is compared with the newest message seen per chat, and what is newer is read from Postbox, oldest
/// first. Messages sent from this process (local ids) are left out until the server's copy replaces them.
public final class MessageWatch: @unchecked Sendable {
    private let account: Account
    private let chats: Int
    private let seen = LockedValue<[PeerId: MessageIndex]?>(nil)

    public init(account: Account, chats: Int = 100) {
        self.account = account
        self.chats = chats
    }

    /// The stream of new messages; ending the iteration stops watching. `onReady` is called once the starting point
    /// (the newest message of each chat) is taken: anything stored after it is reported.
    public func messages(onReady: @escaping @Sendable () -> Void = {}) -> AsyncStream<Message> {
        let postbox = account.postbox
        let seen = self.seen
        let signal = account.chatListView(count: chats)
        return AsyncStream { continuation in
            let disposable = signal.start(next: { view in
                let tops = Dictionary(
                    view.entries.compactMap { entry in entry.topMessage.map { (entry.peerId, $0.index) } },
                    uniquingKeysWith: { first, _ in first })
                let previous = seen.withLock { state -> [PeerId: MessageIndex]? in
                    let before = state
                    var next = state ?? [:]
                    for (peer, index) in tops where next[peer].map({ $0 < index }) ?? true { next[peer] = index }
                    state = next
                    return before
                }
                // The first view is the starting point: nothing in it is new.
                guard let previous else {
                    onReady()
                    return
                }
                for (peer, top) in tops {
                    let from = previous[peer]
                    guard from.map({ $0 < top }) ?? true else { continue }
                    // A chat new to the list shows its newest message; a known one everything after what was seen.
                    let new = (try? postbox.readTransactionSync { tx in
                        from == nil
                            ? try tx.earlierMessages(peerId: peer, before: nil, count: 1)
                            : try tx.laterMessages(peerId: peer, after: from, count: 100)
                    }) ?? []
                    for message in new where message.id.namespace == Namespaces.Message.cloud { continuation.yield(message) }
                }
            })
            continuation.onTermination = { _ in disposable.dispose() }
        }
    }
}
