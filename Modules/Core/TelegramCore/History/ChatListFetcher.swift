public import AccountNetworking
import Foundation
import Network
public import Postbox
public import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi

/// Loads the chat list from the server page by page (Telegram-iOS `fetchChatListHole`): while an open chat-list view
/// shows fewer chats than it asked for and the server has more, the next `messages.getDialogs` page is stored —
/// peers (channels and supergroups included), each chat's top message (with a hole below it when nothing older is
/// stored), its read state and, for a channel with no stored `ChannelState`, the dialog's pts — in one transaction. One page is fetched at a time, however many views ask.
public final class ChatListFetcher: @unchecked Sendable {
    /// Where the next page starts: the last chat of the previous page, as `getDialogs` pages (date, id, peer).
    struct Position: Sendable, Equatable {
        var date: Int32 = 0
        var id: Int32 = 0
        var peer: Api.InputPeer = .inputPeerEmpty

        static func == (lhs: Position, rhs: Position) -> Bool { lhs.date == rhs.date && lhs.id == rhs.id }
    }

    public let pageSize: Int32
    private let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: any AccountNetworking
    /// The executor its Swift tasks prefer (`AccountScheduling.taskExecutor`; nil: Swift's default).
    private let taskExecutor: (any TaskExecutor)?
    private let progress = LockedValue((next: Position(), complete: false, running: false, pages: 0))
    /// Whether a page is being fetched (`isFetching`).
    private let fetching = ValuePromise(false, ignoreRepeated: true)

    init(
        accountPeerId: PeerId, postbox: Postbox, network: any AccountNetworking, pageSize: Int32 = 100,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.taskExecutor = taskExecutor
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.pageSize = pageSize
    }

    /// Pages fetched so far, and whether the server has no more.
    public var pagesFetched: Int { progress.withLock { $0.pages } }
    public var isComplete: Bool { progress.withLock { $0.complete } }
    /// Whether a page is being fetched now, then each time that changes (false once the fetch has stored its page):
    /// what a caller whose `fetchNextPage` found another fetch running waits on. Delivered under the fetcher's lock: a
    /// subscriber must not call back into the fetcher synchronously.
    public var isFetching: Signal<Bool, NoError> { fetching.get() }

    /// Called with each emission of a chat-list view.
    public func viewChanged(_ view: ChatListView) {
        guard view.entries.count < view.count, !progress.withLock({ $0.complete || $0.running }) else { return }
        Task(executorPreference: taskExecutor) { try? await self.fetchNextPage() }
    }

    /// Starts over from the top (after `differenceTooLong`): the first page is fetched again.
    public func reload() {
        progress.withLock {
            $0.next = Position()
            $0.complete = false
        }
        Task(executorPreference: taskExecutor) { try? await self.fetchNextPage() }
    }

    /// Fetches and stores the next page; returns how many chats it had (0 when another fetch runs or none are left).
    @discardableResult
    public func fetchNextPage() async throws -> Int {
        let start: Position? = progress.withLock { state in
            guard !state.complete, !state.running else { return nil }
            state.running = true
            fetching.set(true)  // under the lock, so whoever saw `running` also sees it
            return state.next
        }
        guard let start else { return 0 }
        defer {
            progress.withLock {
                $0.running = false
                fetching.set(false)
            }
        }
        let answer = try await network.request(
            Api.functions.messages.getDialogs(
                offsetDate: start.date, offsetId: start.id, offsetPeer: start.peer, limit: pageSize, hash: 0))
        let dialogs: [Api.Dialog], messages: [Api.Message], users: [Api.User], chats: [Api.Chat]
        let isSlice: Bool
        switch answer {
        case .dialogs(let page):
            (dialogs, messages, users, chats, isSlice) = (page.dialogs, page.messages, page.users, page.chats, false)
        case .dialogsSlice(let page):
            (dialogs, messages, users, chats, isSlice) = (page.dialogs, page.messages, page.users, page.chats, true)
        case .dialogsNotModified: (dialogs, messages, users, chats, isSlice) = ([], [], [], [], false)
        }
        let accountPeerId = self.accountPeerId
        let next = try postbox.transactionSync { tx -> Position? in
            let stored = try storeDialogs(
                dialogs, messages: messages, users: users, chats: chats, accountPeerId: accountPeerId, transaction: tx)
            var last: Position?
            for dialog in dialogs {
                guard case .dialog(let value) = dialog else { continue }
                let peerId = PeerId(value.peer)
                let top = stored.first {
                    $0.id.peerId == peerId
                        && $0.id == .id(MessageId(peerId: peerId, namespace: 0, id: value.topMessage))
                }
                if let top, let peer = try apiInputPeer(peerId, accountPeerId: accountPeerId, transaction: tx) {
                    last = Position(date: top.timestamp, id: value.topMessage, peer: peer)
                }
            }
            return last
        }
        progress.withLock {
            $0.pages += 1
            if let next, isSlice, dialogs.count >= Int(pageSize) {
                $0.next = next
            } else {
                $0.complete = true
            }
        }
        return dialogs.count
    }
}
